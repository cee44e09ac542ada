# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: secret
short_description: Manage RunPod account secrets
version_added: 0.3.0
description:
  - Create, rotate, describe and delete RunPod account secrets, encrypted strings that pods, templates, endpoints
    and clusters read through O(runpod.cloud.pod#module:secret_env) (the env value C({{ RUNPOD_SECRET_<name> }}),
    replaced with the secret's value when a container boots).
  - The secret is identified by O(name). RunPod keeps names unique without regard to case, so V(HF_TOKEN) finds
    a secret named V(hf_token).
  - RunPod never returns a value, so a value cannot be compared. With O(update_value=on_create) (the default) an
    existing secret keeps its value and reruns report no change; with O(update_value=always) the value is sent on
    every run, and the task always reports a change. The value shows in no result, diff or log line.
  - A running pod or serverless worker keeps the value it booted with; a rotated value reaches it at its next
    boot (restart the pod, or roll the endpoint's workers). See the collection's C(docs/secrets.md).
extends_documentation_fragment:
  - runpod.cloud.common.RESOURCE
options:
  name:
    description:
      - Name of the secret; the identity used to find it, and the C(<name>) of C({{ RUNPOD_SECRET_<name> }}).
      - Starts with a letter or C(_), holds only letters, digits and C(_ . - /), at most 191 characters, and does
        not start with C(RUNPOD) (in any case). Anything else fails with C(code=bad_request) before any API call.
      - A secret cannot be renamed.
    type: str
    required: true
  state:
    description:
      - V(present) creates the secret, or updates its description (and its value, see O(update_value));
        V(absent) deletes it.
      - Pods, templates and endpoints that still name a deleted secret keep the placeholder text as the value at
        their next boot.
    type: str
    choices: [present, absent]
    default: present
  value:
    description:
      - The secret's value, at least one character. Required to create a secret.
      - Write-only on RunPod, never logged and never returned.
    type: str
  description:
    description:
      - Human-readable description, compared and updated in place. V("") clears it; omitted leaves it as it is.
    type: str
  update_value:
    description:
      - V(on_create) sends O(value) only when the secret is created; an existing secret keeps its value, so reruns
        are idempotent.
      - V(always) sends O(value) to an existing secret on every run (a rotation, even when the value is the same,
        since RunPod cannot say), and the task reports a change.
      - RunPod applies a value and a description in two steps that are not atomic, so the module sends them as
        two updates, the value first. When the second fails the task fails and says that the value was rotated
        and the description was not (RV(applied), RV(not_applied)).
    type: str
    choices: [on_create, always]
    default: on_create
notes:
  - The value of a secret is never read back, so check mode and diff cannot show whether it differs; the diff
    shows the word C(changed) in parentheses in its place when O(update_value=always) sends it.
seealso:
  - module: runpod.cloud.secret_info
  - module: runpod.cloud.pod
"""

EXAMPLES = r"""
- name: Store a Hugging Face token (the value from a vault)
  runpod.cloud.secret:
    name: hf_token
    value: "{{ vault_hf_token }}"
    description: Hugging Face read token

- name: A pod that reads it as HF_TOKEN (the module writes the placeholder)
  runpod.cloud.pod:
    name: trainer
    image: runpod/pytorch:2.8.0-py3.11-cuda12.8.1-cudnn-devel-ubuntu22.04
    gpu_type_ids: ["NVIDIA GeForce RTX 4090"]
    secret_env:
      HF_TOKEN: hf_token

- name: Rotate it (the pod sees the new value after its next restart)
  runpod.cloud.secret:
    name: hf_token
    value: "{{ vault_hf_token_new }}"
    update_value: always

- name: Restart the pod so that it boots with the new value
  runpod.cloud.pod:
    name: trainer
    state: restarted

- name: Delete the secret
  runpod.cloud.secret:
    name: hf_token
    state: absent
"""

RETURN = r"""
secret:
  description:
    - The secret after the task (with a null RV(secret.id) when created in check mode; the deleted secret with
      O(state=absent); null when there was nothing to delete). Never its value.
  returned: always
  type: dict
  sample:
    id: 2q9m7x4cavgd
    name: hf_token
    description: Hugging Face read token
    created_at: "2026-08-01T12:00:00Z"
    value_last_updated_at: "2026-09-01T08:30:00Z"
  contains:
    id:
      description: Secret id.
      type: str
      returned: always
      sample: 2q9m7x4cavgd
    name:
      description: Secret name, as RunPod stores it.
      type: str
      returned: always
      sample: hf_token
    description:
      description: Description; null when it has none.
      type: str
      returned: always
      sample: Hugging Face read token
    created_at:
      description: When the secret was created (RFC 3339).
      type: str
      returned: always
      sample: "2026-08-01T12:00:00Z"
    value_last_updated_at:
      description: When the value was last set (RFC 3339); it moves with every rotation.
      type: str
      returned: always
      sample: "2026-09-01T08:30:00Z"
actions:
  description:
    - What the task did, in order; V(adopt) when a create met a secret of that name (RunPod answered 409, or the
      create may have gone through) and the task took that secret over, then applied O(description) and, with
      O(update_value=always), O(value).
  returned: always
  type: list
  elements: str
  sample: [update]
updated_fields:
  description: What an update sent, V(value) and/or V(description).
  returned: when the secret was updated
  type: list
  elements: str
  sample: [value, description]
applied:
  description: On a failed update, the parts RunPod applied before the failure (V(value)).
  returned: when an update failed
  type: list
  elements: str
  sample: [value]
not_applied:
  description: On a failed update, the parts that were not applied, or may not have been.
  returned: when an update failed
  type: list
  elements: str
  sample: [description]
diff:
  description:
    - The secret before and after. In place of the value, C(value) shows the words C(stored) and C(changed) (or
      C(set) on create) in parentheses, never the value.
  returned: when changed and in diff mode
  type: dict
  sample:
    before: {value: (stored)}
    after: {value: (changed)}
code:
  description:
    - Machine-readable failure code, for example V(bad_request) (a name RunPod refuses, a create without
      O(value)), V(conflict) or V(unauthorized).
  returned: failure
  type: str
  sample: bad_request
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.runpod.cloud.plugins.module_utils._api.account_inputs import SecretInput
from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._backend.secrets import Secrets
from ansible_collections.runpod.cloud.plugins.module_utils._module.base import run_module
from ansible_collections.runpod.cloud.plugins.module_utils._module.resource import ResourceModule
from ansible_collections.runpod.cloud.plugins.module_utils._module.specs import (
    AUTH_ARGUMENT_SPEC,
    argument_spec,
    secret,
)
from ansible_collections.runpod.cloud.plugins.module_utils._rules.secret_rules import (
    HIDDEN,
    failed_update_message,
    planned_update,
)
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.account_fields import SecretSpec, describe_secret

ARGUMENT_SPEC = argument_spec(
    AUTH_ARGUMENT_SPEC,
    name=dict(type="str", required=True),
    state=dict(type="str", choices=["present", "absent"], default="present"),
    value=secret("value", type="str"),
    description=dict(type="str"),
    update_value=dict(type="str", choices=["on_create", "always"], default="on_create"),
)


class SecretModule(ResourceModule):
    uses = (Secrets,)
    result_key = "secret"
    resource_kind = "secret"
    id_option = None
    input_model = SecretInput
    track_actions = True
    # A create that may have gone through (5xx, lost connection) is looked up by name, never re-sent.
    adopt_after_failed_create = True

    # -- hooks ---------------------------------------------------------------------------------------
    def find_by_name(self, name):
        return self.backend.secrets.find(name)

    def describe(self, resource):
        return describe_secret(resource)

    def build_spec(self):
        p = self.params
        return SecretSpec(name=p["name"], value=p["value"], description=p["description"])

    def plan(self, spec):
        described = describe_secret({"name": spec.name, "description": spec.description})
        return described, dict(described, value=HIDDEN["set"])

    def create(self, spec):
        return self.backend.secrets.create(spec)

    def create_failed(self, spec, error):
        # 409: a secret of this name appeared after the lookup (another task, or one that differs only in case).
        if error.code != "conflict":
            return super().create_failed(spec, error)
        try:
            found = self.find_by_name(spec.name)
        except RunPodError as read_error:
            self.fail_api(
                read_error, f"creating secret {spec.name!r} answered 409 and looking it up failed", changed=False
            )
        if len(found) != 1:
            self.name_guard.create_failed(spec.name, error, None)
        self.result["actions"][-1:] = ["adopt"]
        self.result["changed"] = False  # nothing was created: only what converge changes counts
        self.result.pop("diff", None)
        return self.converge(self.seen(found[0]))

    def delete(self, current):
        self.backend.secrets.delete(current.id)

    def converge(self, current):
        p = self.params
        plan = planned_update(current, p["description"], p["value"] if p["update_value"] == "always" else None)
        if not plan.fields:
            return current
        self.action("update")
        self.result["updated_fields"] = list(plan.fields)
        self.set_diff(plan.before, plan.after)
        if self.module.check_mode:
            return self.seen(current.model_copy(update=plan.view_changes))
        updated, applied = current, []
        for field in plan.fields:  # the value first, as RunPod applies a combined update
            try:
                updated = self.backend.secrets.update(current.id, **{field: p[field]})
            except RunPodError as error:
                self.fail_update(current, plan.fields, applied, error)
            applied.append(field)
        return self.seen(updated)

    def fail_update(self, current, fields, applied, error):
        message, not_applied, maybe = failed_update_message(self.label(current), fields, applied, error)
        self.result["changed"] = bool(applied) or maybe
        self.fail(
            message,
            code=error.code,
            status=error.status,
            resource_id=current.id,
            applied=applied,
            not_applied=not_applied,
        )


def main():
    module = AnsibleModule(argument_spec=ARGUMENT_SPEC, supports_check_mode=True)
    run_module(SecretModule, module)


if __name__ == "__main__":
    main()

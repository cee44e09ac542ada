# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: container_registry
short_description: Manage RunPod container registry credentials for private images
version_added: 0.2.0
description:
  - Create and delete the registry credentials RunPod uses to pull private container images. Pods, templates
    and endpoints name a credential by its id (O(runpod.cloud.pod#module:registry_id),
    O(runpod.cloud.template#module:registry_id), O(runpod.cloud.endpoint#module:registry_id)).
  - The credential is identified by O(id) when given, else by O(name) (RunPod keeps names unique).
  - RunPod never returns the username or password, so they cannot be compared. With O(update_password=on_create)
    (the default) an existing credential is left as it is. With O(update_password=always) the credential is
    replaced on every run, because the API cannot update one in place; see O(update_password).
extends_documentation_fragment:
  - runpod.cloud.common.RESOURCE
  - runpod.cloud.lookup
options:
  id:
    description:
      - Id of the credential. When given, it is the identity; an id never creates a credential.
  name:
    description:
      - Name of the credential; the identity when O(id) is not given. Required to create one.
      - Credentials cannot be renamed (the API has no update); a different O(name) with O(id) fails.
  state:
    description:
      - V(present) creates the credential (or replaces it, see O(update_password)); V(absent) deletes it.
      - RunPod refuses to delete a credential that a running or stopped pod pulls its image with; the task then
        fails with the API's reason. Templates that name the credential do not block the delete; they silently
        lose it.
  username:
    description:
      - Registry username. Required to create (or replace) a credential.
    type: str
  password:
    description:
      - Registry password or access token. Required to create (or replace) a credential.
      - Write-only on RunPod, never logged and never returned.
    type: str
  update_password:
    description:
      - V(on_create) sets O(username) and O(password) only when the credential is created; an existing one is
        left as it is, so reruns are idempotent.
      - V(always) replaces an existing credential with O(username) and O(password). RunPod has no update for
        credentials, so the old one is deleted, then a new one is created under the same name. The task always
        reports a change, the diff shows the replacement, and the credential gets a B(new id); pods, templates and
        endpoints that name the old id must be given the new one (templates lose the old reference silently, and
        the delete fails while a pod still uses the old id, in which case nothing is created).
    type: str
    choices: [on_create, always]
    default: on_create
notes:
  - If creating the replacement fails after the old credential was deleted, the task fails saying so and no
    credential of that name exists; run the task again to create it.
"""

EXAMPLES = r"""
- name: Store Docker Hub credentials for private images
  runpod.cloud.container_registry:
    name: dockerhub-private
    username: my-user
    password: "{{ vault_dockerhub_token }}"
  register: registry

- name: Rotate the token (replaces the credential; it gets a new id, so rotate before a pod pulls with it)
  runpod.cloud.container_registry:
    name: dockerhub-private
    username: my-user
    password: "{{ vault_dockerhub_new_token }}"
    update_password: always
  diff: true
  register: registry

- name: Start a pod from a private image with them
  runpod.cloud.pod:
    name: private-worker
    image: my-user/private-image:1.0
    gpu_type_ids: ["NVIDIA GeForce RTX 4090"]
    registry_id: "{{ registry.container_registry.id }}"

- name: Delete the pod (RunPod keeps a credential that a pod still pulls its image with)
  runpod.cloud.pod:
    name: private-worker
    state: absent

- name: Delete the credential
  runpod.cloud.container_registry:
    name: dockerhub-private
    state: absent
"""

RETURN = r"""
container_registry:
  description:
    - The credential after the task (with a null RV(container_registry.id) when created or replaced in check mode;
      the deleted credential with O(state=absent); null when there was nothing to delete).
    - The username and password are never returned.
  returned: always
  type: dict
  sample:
    id: clzdaifot0001l90809257ynb
    name: dockerhub-private
  contains:
    id:
      description: Credential id (a replacement has a new one).
      type: str
      returned: always
      sample: clzdaifot0001l90809257ynb
    name:
      description: Credential name.
      type: str
      returned: always
      sample: dockerhub-private
actions:
  description: What the task did, in order (V(create), V(delete); a replacement is V(delete) then V(create)).
  returned: always
  type: list
  elements: str
  sample: [delete, create]
replaced_id:
  description: Id of the credential a replacement deleted.
  returned: when the credential was replaced
  type: str
  sample: clzdaifot0001l90809257ynb
diff:
  description:
    - The credential before and after. A replacement shows the old and the new id and C(credential) going from
      V(stored) to V(replaced); the secret itself never appears.
  returned: when changed and in diff mode
  type: dict
  sample:
    before: {id: clzdaifot0001l90809257ynb, name: dockerhub-private, credential: stored}
    after: {id: cm0b3xq1a0002l908abcd1234, name: dockerhub-private, credential: replaced}
code:
  description:
    - Machine-readable failure code, for example V(bad_request) (missing username or password, a rename, or
      RunPod refusing to delete a credential in use), V(not_found) or V(unauthorized).
  returned: failure
  type: str
  sample: bad_request
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.runpod.cloud.plugins.module_utils._api.account_inputs import RegistryInput
from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._backend.account import Account
from ansible_collections.runpod.cloud.plugins.module_utils._module.base import run_module
from ansible_collections.runpod.cloud.plugins.module_utils._module.resource import ResourceModule
from ansible_collections.runpod.cloud.plugins.module_utils._module.specs import (
    AUTH_ARGUMENT_SPEC,
    LOOKUP_ARGUMENT_SPEC,
    argument_spec,
    secret,
)
from ansible_collections.runpod.cloud.plugins.module_utils._rules.common import wanted_name
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.account_fields import RegistrySpec, describe_registry

ARGUMENT_SPEC = argument_spec(
    AUTH_ARGUMENT_SPEC,
    LOOKUP_ARGUMENT_SPEC,
    username=dict(type="str"),
    password=secret("password", type="str"),
    update_password=dict(type="str", choices=["on_create", "always"], default="on_create", no_log=False),
)


class ContainerRegistryModule(ResourceModule):
    uses = (Account,)
    result_key = "container_registry"
    resource_kind = "registry credential"
    input_model = RegistryInput
    track_actions = True
    delete_blocker = " (RunPod keeps a credential that a pod still pulls its image with: terminate the pod first)"

    # -- hooks ---------------------------------------------------------------------------------------
    def read(self, resource_id):
        return self.account.get_registry(resource_id)

    def find_by_name(self, name):
        return self.account.find_registries(name)

    def describe(self, resource):
        return describe_registry(resource)

    def build_spec(self):
        params = self.params
        return RegistrySpec(name=params["name"], username=params["username"], password=params["password"])

    def create(self, spec):
        return self.account.create_registry(spec.name, spec.username, spec.password)

    def not_retried_advice(self, spec):
        return "rerun this task (it finds the credential by name)"

    def changes(self, current):
        # Username and password are write-only: there is nothing to compare.
        return {}

    def delete(self, current):
        self.account.delete_registry(current.id)

    def check_found(self, current):
        params = self.params
        if current is not None and wanted_name(params, current):
            self.fail(
                f"{self.label(current)} cannot be renamed to {params['name']!r}: RunPod has no update for registry "
                f"credentials (create a new one under the new name and delete this one)",
                code="bad_request",
                resource_id=current.id,
            )

    def converge(self, current):
        params = self.params
        if params["update_password"] != "always":
            return current
        return self.replace(current)

    def replace(self, current):
        """Delete, then create under the same name: the API cannot change a stored credential."""
        spec = RegistrySpec(name=current.name, username=self.params["username"], password=self.params["password"])
        self.action("delete")
        self.action("create")
        self.result["replaced_id"] = current.id
        before = {"id": current.id, "name": current.name, "credential": "stored"}
        if self.module.check_mode:
            self.set_diff(before, {"id": None, "name": current.name, "credential": "replaced"})
            self.result[self.result_key] = describe_registry({"id": None, "name": current.name})
            return None
        try:
            self.account.delete_registry(current.id)
        except RunPodError as error:
            if error.code != "not_found":
                self.fail_api(
                    error,
                    f"replacing {self.label(current)} failed: deleting it failed{self.delete_blocker}; nothing was "
                    f"created",
                    resource_id=current.id,
                    changed=False,
                    actions=[],
                )
        try:
            created = self.create(spec)
        except RunPodError as error:
            self.fail(
                f"replacing {self.label(current)}: the old credential was deleted, but creating the new one failed: "
                f"{error.message} ({error.code}); no credential named {current.name!r} exists now, so run the task "
                f"again to create it",
                code=error.code,
                status=error.status,
                resource_id=current.id,
                actions=["delete"],
            )
        self.set_diff(before, {"id": created.id, "name": created.name, "credential": "replaced"})
        return self.seen(created)


def main():
    module = AnsibleModule(
        argument_spec=ARGUMENT_SPEC,
        required_one_of=[("id", "name")],
        supports_check_mode=True,
    )
    run_module(ContainerRegistryModule, module)


if __name__ == "__main__":
    main()

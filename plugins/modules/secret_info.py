# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: secret_info
short_description: Read RunPod account secrets
version_added: 0.3.0
description:
  - List RunPod account secrets, one by O(id), the one named O(name) (RunPod matches names without regard to
    case), or all of them. One API read.
  - A secret's value is write-only on RunPod and is never returned; each entry's C(value_last_updated_at) says
    when it last changed.
extends_documentation_fragment:
  - runpod.cloud.common.INFO_SELECTION
seealso:
  - module: runpod.cloud.secret
"""

EXAMPLES = r"""
- name: Read every secret
  runpod.cloud.secret_info:
  register: found

- name: Names of the secrets a pod's secret_env may use
  ansible.builtin.debug:
    msg: "{{ found.secrets | map(attribute='name') | list }}"

- name: When was hf_token last rotated?
  runpod.cloud.secret_info:
    name: hf_token
  register: hf
"""

RETURN = r"""
secrets:
  description:
    - The secrets found, never a value.
    - Each element has the keys of RV(runpod.cloud.secret#module:secret) (the same shape, built by the same code).
  returned: always
  type: list
  elements: dict
  sample:
    - id: 2q9m7x4cavgd
      name: hf_token
      description: Hugging Face read token
      created_at: "2026-08-01T12:00:00Z"
      value_last_updated_at: "2026-09-01T08:30:00Z"
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.runpod.cloud.plugins.module_utils._backend.secrets import Secrets
from ansible_collections.runpod.cloud.plugins.module_utils._module.base import RunPodModule, run_module
from ansible_collections.runpod.cloud.plugins.module_utils._module.specs import (
    AUTH_ARGUMENT_SPEC,
    INFO_MUTUALLY_EXCLUSIVE,
    INFO_SELECTION_SPEC,
    argument_spec,
)
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.account_fields import describe_secret

ARGUMENT_SPEC = argument_spec(
    AUTH_ARGUMENT_SPEC,
    INFO_SELECTION_SPEC,
)


class SecretInfoModule(RunPodModule):
    uses = (Secrets,)
    result_key = "secrets"
    resource_kind = "secret"

    def run(self):
        secrets = self.backend.secrets
        found = self.select(secrets.get, secrets.find, secrets.list)
        self.exit(secrets=[describe_secret(secret) for secret in found])


def main():
    module = AnsibleModule(
        argument_spec=ARGUMENT_SPEC,
        mutually_exclusive=INFO_MUTUALLY_EXCLUSIVE,
        supports_check_mode=True,
    )
    run_module(SecretInfoModule, module)


if __name__ == "__main__":
    main()

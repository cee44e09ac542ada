# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: network_volume_info
short_description: Read RunPod network volumes
version_added: 0.2.0
description:
  - List RunPod network volumes, one by O(id), those named O(name), or all of them. One API read.
extends_documentation_fragment:
  - runpod.cloud.common.INFO_SELECTION
"""

EXAMPLES = r"""
- name: Read every network volume
  runpod.cloud.network_volume_info:
  register: volumes

- name: Total provisioned storage
  ansible.builtin.debug:
    msg: "{{ volumes.network_volumes | map(attribute='size_gb') | sum }} GB"

- name: Read the volumes named datasets
  runpod.cloud.network_volume_info:
    name: datasets
  register: datasets
"""

RETURN = r"""
network_volumes:
  description:
    - The volumes found.
    - Each element has the keys of RV(runpod.cloud.network_volume#module:network_volume) (the same shape, built by
      the same code).
  returned: always
  type: list
  elements: dict
  sample:
    - id: agv6w2qcg7
      name: datasets
      size_gb: 50
      data_center_id: EU-RO-1
      type: STANDARD
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.runpod.cloud.plugins.module_utils._backend.account import Account
from ansible_collections.runpod.cloud.plugins.module_utils._module.base import RunPodModule, run_module
from ansible_collections.runpod.cloud.plugins.module_utils._module.specs import (
    AUTH_ARGUMENT_SPEC,
    INFO_MUTUALLY_EXCLUSIVE,
    INFO_SELECTION_SPEC,
    argument_spec,
)
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.account_fields import describe_network_volume

ARGUMENT_SPEC = argument_spec(
    AUTH_ARGUMENT_SPEC,
    INFO_SELECTION_SPEC,
)


class NetworkVolumeInfoModule(RunPodModule):
    uses = (Account,)
    result_key = "network_volumes"
    resource_kind = "network volume"

    def run(self):
        account = self.account
        volumes = self.select(account.get_network_volume, account.find_network_volumes, account.list_network_volumes)
        self.exit(network_volumes=[describe_network_volume(volume) for volume in volumes])


def main():
    module = AnsibleModule(
        argument_spec=ARGUMENT_SPEC,
        mutually_exclusive=INFO_MUTUALLY_EXCLUSIVE,
        supports_check_mode=True,
    )
    run_module(NetworkVolumeInfoModule, module)


if __name__ == "__main__":
    main()

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
author:
  - runpod.cloud contributors (@runpod-cloud)
extends_documentation_fragment:
  - runpod.cloud.auth
  - runpod.cloud.attributes
  - runpod.cloud.attributes.INFO_MODULE
options:
  id:
    description:
      - Id of the volume to read. An unknown id gives an empty list.
    type: str
  name:
    description:
      - Name of the volumes to read (names are not unique on RunPod, so several may match).
    type: str
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
  description: The volumes found.
  returned: always
  type: list
  elements: dict
  sample:
    - id: agv6w2qcg7
      name: datasets
      size_gb: 50
      data_center_id: EU-RO-1
      type: STANDARD
  contains:
    id:
      description: Volume id.
      type: str
      returned: always
      sample: agv6w2qcg7
    name:
      description: Volume name.
      type: str
      returned: always
      sample: datasets
    size_gb:
      description: Size in GB.
      type: int
      returned: always
      sample: 50
    data_center_id:
      description: Data center of the volume.
      type: str
      returned: always
      sample: EU-RO-1
    type:
      description: Storage tier; null with O(api_version=v1), which does not report it.
      type: str
      returned: always
      sample: STANDARD
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.runpod.cloud.plugins.module_utils._base import (
    AUTH_ARGUMENT_SPEC,
    RunPodModule,
    argument_spec,
    run_module,
)
from ansible_collections.runpod.cloud.plugins.module_utils._client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._describe import describe_network_volume

ARGUMENT_SPEC = argument_spec(
    AUTH_ARGUMENT_SPEC,
    id=dict(type="str"),
    name=dict(type="str"),
)


class NetworkVolumeInfoModule(RunPodModule):
    result_key = "network_volumes"
    resource_kind = "network volume"

    def run(self):
        params = self.module.params
        account = self.account
        try:
            if params.get("id"):
                volumes = [account.get_network_volume(params["id"])]
            elif params.get("name"):
                volumes = account.find_network_volumes(params["name"])
            else:
                volumes = account.list_network_volumes()
        except RunPodError as error:
            if error.code != "not_found" or not params.get("id"):
                self.fail_api(error, "reading network volumes failed")
            volumes = []
        self.exit(network_volumes=[describe_network_volume(volume) for volume in volumes])


def main():
    module = AnsibleModule(
        argument_spec=ARGUMENT_SPEC,
        mutually_exclusive=[("id", "name")],
        supports_check_mode=True,
    )
    run_module(NetworkVolumeInfoModule, module)


if __name__ == "__main__":
    main()

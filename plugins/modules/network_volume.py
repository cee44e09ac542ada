# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: network_volume
short_description: Manage RunPod network volumes
version_added: 0.2.0
description:
  - Create, grow, rename and delete RunPod network volumes, persistent network-attached storage that pods
    (O(runpod.cloud.pod#module:network_volume_id)) and serverless endpoints
    (O(runpod.cloud.endpoint#module:network_volume_id)) mount.
  - The volume is identified by O(id) when given, else by O(name). Names are not unique on RunPod; if several
    volumes share O(name), the task fails and lists their ids instead of guessing.
  - A volume can grow but never shrink, and its data center and type are fixed when it is created. A smaller
    O(size_gb), or a different O(data_center_id) or O(type), fails the task before any change is sent; nothing is
    ever deleted and created again.
  - A network volume bills for its storage until it is deleted.
extends_documentation_fragment:
  - runpod.cloud.common.RESOURCE
  - runpod.cloud.lookup
options:
  id:
    description:
      - Id of the volume. When given, it is the identity, and O(name) (if given and different) renames the volume.
      - An id never creates a volume; an unknown id fails with O(state=present) and is nothing to do with
        O(state=absent).
  name:
    description:
      - Name of the volume; the identity when O(id) is not given.
      - Required to create a volume.
  state:
    description:
      - V(present) creates the volume, or grows or renames it; V(absent) deletes it.
      - RunPod refuses to delete a volume that a pod or an endpoint still mounts; the task then fails with the
        API's reason and the volume is kept. Terminate the pod (or remove the volume from the endpoint) first.
  size_gb:
    description:
      - Size in GB, from 10 to 4096. Required to create a volume.
      - On an existing volume a larger value grows it; a smaller value fails (storage cannot be reduced).
    type: int
    aliases: [size]
  data_center_id:
    description:
      - Data center of the volume, for example V(EU-RO-1). Required to create a volume.
      - Pods that mount the volume run in this data center.
      - Fixed at creation; a different value on an existing volume fails.
    type: str
  type:
    description:
      - Storage tier. When creating without it, RunPod uses the data center's default tier.
      - Fixed at creation; a different value on an existing volume fails.
    type: str
    choices: [STANDARD, HIGH_PERFORMANCE]
"""

EXAMPLES = r"""
- name: Create a 50 GB volume in EU-RO-1
  runpod.cloud.network_volume:
    name: datasets
    size_gb: 50
    data_center_id: EU-RO-1
  register: volume

- name: Start a pod that mounts the volume at /workspace
  runpod.cloud.pod:
    name: trainer
    image: runpod/pytorch:2.8.0-py3.11-cuda12.8.1-cudnn-devel-ubuntu22.04
    gpu_type_ids: ["NVIDIA GeForce RTX 4090"]
    data_center_ids: ["{{ volume.network_volume.data_center_id }}"]
    network_volume_id: "{{ volume.network_volume.id }}"
    volume_mount_path: /workspace

- name: Grow it to 100 GB (a smaller size would fail)
  runpod.cloud.network_volume:
    name: datasets
    size_gb: 100

- name: Delete the pod first (RunPod keeps a volume that a pod still mounts)
  runpod.cloud.pod:
    name: trainer
    state: absent

- name: Delete the volume
  runpod.cloud.network_volume:
    name: datasets
    state: absent
"""

RETURN = r"""
network_volume:
  description:
    - The volume after the task (with a null RV(network_volume.id) when created in check mode; the deleted
      volume with O(state=absent); null when there was nothing to delete).
  returned: always
  type: dict
  sample:
    id: agv6w2qcg7
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
      description:
        - Storage tier, V(STANDARD) or V(HIGH_PERFORMANCE); null when RunPod does not report it.
      type: str
      returned: always
      sample: STANDARD
diff:
  description: The volume before and after the change (only the changed fields for an update).
  returned: when changed and in diff mode
  type: dict
  sample:
    before: {size_gb: 50}
    after: {size_gb: 100}
ids:
  description: Ids of the volumes sharing O(name) when the task failed because the name is ambiguous.
  returned: on ambiguity failure
  type: list
  elements: str
  sample: [agv6w2qcg7, 3kq0c8x1vb]
code:
  description:
    - Machine-readable failure code, for example V(ambiguous), V(bad_request) (a shrink, an immutable field,
      bad input, or RunPod refusing to delete a volume in use), V(not_found) or V(unauthorized).
  returned: failure
  type: str
  sample: bad_request
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.runpod.cloud.plugins.module_utils._api.account_inputs import NetworkVolumeInput
from ansible_collections.runpod.cloud.plugins.module_utils._backend.account import Account
from ansible_collections.runpod.cloud.plugins.module_utils._module.base import run_module
from ansible_collections.runpod.cloud.plugins.module_utils._module.resource import ResourceModule
from ansible_collections.runpod.cloud.plugins.module_utils._module.specs import (
    AUTH_ARGUMENT_SPEC,
    LOOKUP_ARGUMENT_SPEC,
    argument_spec,
)
from ansible_collections.runpod.cloud.plugins.module_utils._rules.common import rename_change
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.account_fields import (
    NetworkVolumeSpec,
    describe_network_volume,
)

ARGUMENT_SPEC = argument_spec(
    AUTH_ARGUMENT_SPEC,
    LOOKUP_ARGUMENT_SPEC,
    size_gb=dict(type="int", aliases=["size"]),
    data_center_id=dict(type="str"),
    type=dict(type="str", choices=["STANDARD", "HIGH_PERFORMANCE"]),
)

# Fixed at creation: a different wanted value fails instead of recreating (the data would be lost).
IMMUTABLE = ("data_center_id", "type")


class NetworkVolumeModule(ResourceModule):
    uses = (Account,)
    result_key = "network_volume"
    resource_kind = "network volume"
    input_model = NetworkVolumeInput
    delete_blocker = " (a volume that a pod or an endpoint still mounts is kept: terminate the pod or detach it first)"

    # -- hooks ---------------------------------------------------------------------------------------
    def read(self, resource_id):
        return self.account.get_network_volume(resource_id)

    def find_by_name(self, name):
        return self.account.find_network_volumes(name)

    def describe(self, resource):
        return describe_network_volume(resource)

    def build_spec(self):
        params = self.params
        return NetworkVolumeSpec(
            name=params["name"], size_gb=params["size_gb"], data_center_id=params["data_center_id"], type=params["type"]
        )

    def create(self, spec):
        return self.account.create_network_volume(spec)

    def not_retried_advice(self, spec):
        return f"check with runpod.cloud.network_volume_info name={spec.name} before running this task again"

    def check_found(self, current):
        if current is None:
            return
        params = self.params
        for option in IMMUTABLE:
            wanted, have = params.get(option), getattr(current, option)
            if wanted and have and wanted != have:
                self.fail(
                    f"{self.label(current)} has {option} {have}, and {option} is fixed when a volume is created; "
                    f"nothing was changed (to move the data, create a new volume with another name and copy it)",
                    code="bad_request",
                    resource_id=current.id,
                )
        size = params.get("size_gb")
        if size is not None and current.size_gb is not None and size < current.size_gb:
            self.fail(
                f"{self.label(current)} is {current.size_gb} GB, and a network volume can grow but never shrink; "
                f"nothing was changed (set size_gb to {current.size_gb} or more)",
                code="bad_request",
                resource_id=current.id,
            )

    def changes(self, current):
        changes = rename_change(self.params, current)
        size = self.params.get("size_gb")
        if size is not None and size != current.size_gb:
            changes["size_gb"] = size
        return changes

    def update(self, current, changes):
        return self.account.update_network_volume(current.id, changes)

    def delete(self, current):
        self.account.delete_network_volume(current.id)


def main():
    module = AnsibleModule(
        argument_spec=ARGUMENT_SPEC,
        required_one_of=[("id", "name")],
        supports_check_mode=True,
    )
    run_module(NetworkVolumeModule, module)


if __name__ == "__main__":
    main()

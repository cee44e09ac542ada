# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: gpu_type_info
short_description: Read RunPod's GPU types, their prices and stock, and its data centers
version_added: 0.2.0
description:
  - Read RunPod's GPU catalog for pods, one C(GET /v2/catalog/gpus?include=AVAILABILITY&product=POD). Each GPU
    type comes with its display name, memory, prices per cloud, stock overall and per data center, and CUDA versions.
  - Filter by id, data center, minimum memory, minimum stock and maximum price, so a playbook can choose GPU types
    before it creates a pod (feed the ids to the O(runpod.cloud.pod#module:gpu_type_ids) of M(runpod.cloud.pod)).
  - With O(data_centers=true), also reads the data centers (one more read) with the GPU stock of each.
  - Stock is a snapshot, not a reservation; M(runpod.cloud.pod) reads it again before its create.
extends_documentation_fragment:
  - runpod.cloud.common.INFO
options:
  ids:
    description:
      - GPU type ids to return (for example V(NVIDIA GeForce RTX 4090)), in this order. Omit for every type.
    type: list
    elements: str
  data_center_ids:
    description:
      - Keep the types with stock in at least one of these data centers; C(stock) and C(stock_by_data_center) then
        describe these data centers only.
    type: list
    elements: str
  min_memory_gb:
    description: Keep the types with at least this much GPU memory (GB).
    type: int
  min_stock:
    description: Keep the types whose stock is at least this level.
    type: str
    choices: [LOW, MEDIUM, HIGH]
  max_price:
    description: Keep the types whose on-demand price per GPU and hour (USD) in O(cloud_type) is at most this.
    type: float
  cloud_type:
    description: The cloud whose stock and price count (RunPod scopes availability to one cloud).
    type: str
    choices: [SECURE, COMMUNITY]
    default: SECURE
  gpu_count:
    description: Stock is counted for pods of this many GPUs.
    type: int
    default: 1
  data_centers:
    description: Also return C(data_centers), every data center with its GPU stock.
    type: bool
    default: false
"""

EXAMPLES = r"""
- name: GPU types with 48 GB or more in stock under 1 USD per hour
  runpod.cloud.gpu_type_info:
    min_memory_gb: 48
    min_stock: LOW
    max_price: 1.0
  register: catalog

- name: Create a pod on the first of them that can be placed
  runpod.cloud.pod:
    name: trainer
    image: runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04
    gpu_type_ids: "{{ catalog.gpu_types | sort(attribute='prices.secure.on_demand') | map(attribute='id') | list }}"

- name: European data centers and their stock
  runpod.cloud.gpu_type_info:
    data_center_ids: [EU-RO-1, EU-SE-1]
    data_centers: true
  register: europe
"""

RETURN = r"""
gpu_types:
  description: The GPU types that passed every filter, in catalog order (in O(ids) order when given).
  returned: always
  type: list
  elements: dict
  contains:
    id:
      description: GPU type id, as O(runpod.cloud.pod#module:gpu_type_ids) takes it.
      type: str
      returned: always
      sample: NVIDIA GeForce RTX 4090
    display_name:
      description: The name RunPod shows.
      type: str
      returned: always
      sample: RTX 4090
    manufacturer:
      description: NVIDIA, AMD or UNKNOWN.
      type: str
      returned: always
    memory_gb:
      description: GPU memory (VRAM) in GB.
      type: int
      returned: always
      sample: 24
    pool:
      description: The serverless pool of the type, or null.
      type: str
      returned: always
    secure_cloud:
      description: Whether the type is offered on the secure cloud.
      type: bool
      returned: always
    community_cloud:
      description: Whether the type is offered on the community cloud.
      type: bool
      returned: always
    max_gpu_count:
      description: C({secure, community}), the most GPUs of this type one pod can have per cloud.
      type: dict
      returned: always
    prices:
      description:
        - USD per GPU and hour, keyed C(secure) and C(community) (each with C(on_demand) and C(spot)) and C(serverless).
        - REST v2 does not publish spot prices; they are null.
      type: dict
      returned: always
      sample: {secure: {on_demand: 0.69, spot: null}, community: {on_demand: 0.55, spot: null}, serverless: null}
    stock:
      description:
        - NONE, LOW, MEDIUM or HIGH for pods in O(cloud_type) (the best of O(data_center_ids) when given).
      type: str
      returned: always
      sample: HIGH
    stock_by_data_center:
      description: Data center id -> stock level, for the data centers that have the type now.
      type: dict
      returned: always
      sample: {US-TX-3: HIGH, EU-RO-1: LOW}
    cuda_versions:
      description: C({version, available}) per CUDA version the type's hosts run.
      type: list
      elements: dict
      returned: always
      sample: [{version: "12.8", available: true}]
data_centers:
  description: Every data center, with its GPU stock. Empty unless O(data_centers=true).
  returned: always
  type: list
  elements: dict
  contains:
    id:
      description: Data center id, as O(runpod.cloud.pod#module:data_center_ids) takes it.
      type: str
      returned: always
      sample: EU-RO-1
    name:
      description: Display name.
      type: str
      returned: always
    region:
      description: Continent, for example EUROPE or NORTH_AMERICA.
      type: str
      returned: always
    global_network:
      description: Whether the data center supports global networking.
      type: bool
      returned: always
    network_volume_types:
      description: Network volume tiers offered there.
      type: list
      elements: str
      returned: always
    compliance:
      description: Compliance certifications held.
      type: list
      elements: str
      returned: always
    gpu_stock:
      description: GPU type id -> stock level, for the types offered there now.
      type: dict
      returned: always
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.runpod.cloud.plugins.module_utils._api import catalog as _catalog
from ansible_collections.runpod.cloud.plugins.module_utils._api.account_inputs import GpuTypeQueryInput
from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._backend.connection import Gpus
from ansible_collections.runpod.cloud.plugins.module_utils._module.base import RunPodModule, check_input, run_module
from ansible_collections.runpod.cloud.plugins.module_utils._module.specs import AUTH_ARGUMENT_SPEC, argument_spec

ARGUMENT_SPEC = argument_spec(
    AUTH_ARGUMENT_SPEC,
    ids=dict(type="list", elements="str"),
    data_center_ids=dict(type="list", elements="str"),
    min_memory_gb=dict(type="int"),
    min_stock=dict(type="str", choices=["LOW", "MEDIUM", "HIGH"]),
    max_price=dict(type="float"),
    cloud_type=dict(type="str", choices=["SECURE", "COMMUNITY"], default="SECURE"),
    gpu_count=dict(type="int", default=1),
    data_centers=dict(type="bool", default=False),
)


class GpuTypeInfoModule(RunPodModule):
    uses = (Gpus,)
    result_key = "gpu_types"
    resource_kind = "GPU type"

    def run(self):
        p = self.module.params
        check_input(self, GpuTypeQueryInput)
        try:
            payload = self.backend.gpus.catalog(cloud=p["cloud_type"], count=p["gpu_count"], attempts=None)
            centers = self.backend.gpus.data_centers() if p["data_centers"] else {"dataCenters": []}
        except RunPodError as error:
            self.fail_api(error, "reading the GPU catalog failed")
        raw_types = payload.get("gpus") if isinstance(payload, dict) else None
        raw_centers = centers.get("dataCenters") if isinstance(centers, dict) else None
        if not isinstance(raw_types, list) or not isinstance(raw_centers, list):
            self.fail("the GPU catalog answer is not a list of GPU types / data centers", code="bad_response")
        described = [_catalog.describe_gpu_type(raw) for raw in raw_types if isinstance(raw, dict)]
        gpu_types = _catalog.select_gpu_types(
            described,
            ids=p["ids"],
            data_center_ids=p["data_center_ids"],
            min_memory_gb=p["min_memory_gb"],
            min_stock=p["min_stock"],
            max_price=p["max_price"],
            cloud_type=p["cloud_type"],
        )
        data_centers = [_catalog.describe_data_center(raw) for raw in raw_centers if isinstance(raw, dict)]
        self.exit(gpu_types=gpu_types, data_centers=data_centers)


def main():
    module = AnsibleModule(argument_spec=ARGUMENT_SPEC, supports_check_mode=True)
    run_module(GpuTypeInfoModule, module)


if __name__ == "__main__":
    main()

# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: cluster_info
short_description: Read RunPod Instant Clusters and their nodes
version_added: 0.2.0
description:
  - Reads one cluster (by O(id) or O(name)) or every cluster of the account, each with its nodes in rank order.
  - Costs one read of the clusters (one read by id with O(id)), plus one read of the nodes per cluster
    returned when O(pods=true).
extends_documentation_fragment:
  - runpod.cloud.common.INFO_SELECTION
options:
  pods:
    description:
      - Whether to read each cluster's nodes (one read per cluster).
    type: bool
    default: true
seealso:
  - module: runpod.cloud.cluster
"""

EXAMPLES = r"""
- name: Read a cluster and its nodes
  runpod.cloud.cluster_info:
    name: llm-train
  register: llm

- name: Show each node's rank, overlay address and SSH command
  ansible.builtin.debug:
    msg: "{{ item.rank }} {{ item.cluster_ip }} {{ item.ssh.command | default('no ssh yet') }}"
  loop: "{{ llm.clusters[0].pods }}"
  when: llm.clusters | length == 1

- name: List every cluster without its nodes
  runpod.cloud.cluster_info:
    pods: false
  register: all_clusters
"""

RETURN = r"""
clusters:
  description:
    - The clusters found, each in the shape of RV(runpod.cloud.cluster#module:cluster) plus C(pods), its nodes
      in rank order in the shape of RV(runpod.cloud.cluster#module:pods) (empty with O(pods=false)).
  returned: always
  type: list
  elements: dict
  sample:
    - id: 5c2n8m4q
      name: llm-train
      type: TRAINING
      gpu_type_id: NVIDIA H100 80GB HBM3
      gpu_count_per_pod: 8
      pod_count: 2
      data_center_id: US-TX-3
      network: {cidr: 10.65.0.0/16, vxlan_id: 42, vxlan_port: 4789}
      primary: {pod_id: a1b2c3, status: RUNNING, ssh_endpoint: "203.0.113.7:22001"}
      pods_by_status: {RUNNING: 2}
      created_at: "2026-06-29T20:00:00Z"
      pods:
        - {id: a1b2c3, name: llm-train-node-0, rank: 0, role: null, cluster_ip: 10.65.0.2, primary: true}
        - {id: d4e5f6, name: llm-train-node-1, rank: 1, role: null, cluster_ip: 10.65.0.3, primary: false}
code:
  description: Machine-readable failure code, for example C(bad_request) or C(unauthorized).
  returned: on failure
  type: str
  sample: bad_request
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.runpod.cloud.plugins.module_utils._backend.clusters import Clusters
from ansible_collections.runpod.cloud.plugins.module_utils._backend.connection import Gpus
from ansible_collections.runpod.cloud.plugins.module_utils._backend.templates import Templates
from ansible_collections.runpod.cloud.plugins.module_utils._module.base import RunPodModule, run_module
from ansible_collections.runpod.cloud.plugins.module_utils._module.specs import (
    AUTH_ARGUMENT_SPEC,
    INFO_MUTUALLY_EXCLUSIVE,
    INFO_SELECTION_SPEC,
    argument_spec,
)
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.cluster_fields import (
    describe_cluster,
    describe_members,
)

ARGUMENT_SPEC = argument_spec(
    AUTH_ARGUMENT_SPEC,
    INFO_SELECTION_SPEC,
    pods=dict(type="bool", default=True),
)


class ClusterInfoModule(RunPodModule):
    uses = (Clusters, Gpus, Templates)
    result_key = "clusters"
    resource_kind = "cluster"

    def run(self):
        p = self.module.params
        backend = self.backend
        clusters = self.select(backend.clusters.get, backend.clusters.find, backend.clusters.list)
        described = []
        for cluster in clusters:
            entry = describe_cluster(cluster)
            entry["pods"] = describe_members(self.backend.clusters.pods(cluster.id)) if p["pods"] else []
            described.append(entry)
        self.exit(clusters=described)


def main():
    module = AnsibleModule(argument_spec=ARGUMENT_SPEC, mutually_exclusive=INFO_MUTUALLY_EXCLUSIVE,
                           supports_check_mode=True)
    run_module(ClusterInfoModule, module)


if __name__ == "__main__":
    main()

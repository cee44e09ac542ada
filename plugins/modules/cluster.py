# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: cluster
short_description: Create and delete RunPod Instant Clusters, and wait until every node answers SSH
version_added: 0.2.0
description:
  - Manages one RunPod Instant Cluster, found by O(id), else by O(name). A cluster is O(pod_count) identical
    pods (nodes) in one data center on a private overlay network, for multi-node training.
  - Names are not unique on RunPod, so this module enforces it. A lookup by name that finds several clusters
    fails and lists their ids. A cluster is never created twice for one name, also not after a create that
    answered with a server error (the module lists clusters by name and adopts the one it finds).
  - RunPod can only rename a cluster in place. Everything else (type, GPU type and count, node count, image,
    environment, ports, disk, data center) is fixed at creation. When an existing cluster differs from the
    task in such a setting, the task fails with code V(conflict) and says what differs. Nothing is changed and
    nothing is recreated, so delete the cluster and run the task again to get the new settings.
  - With O(wait=true) the module blocks until B(every) node answers SSH. Each interval it reads the node list
    once, and probes SSH between those reads. A node that stops, fails or is terminated fails the wait at
    once. A failed wait never deletes anything. The task then fails with the nodes that are not ready and
    their last states.
extends_documentation_fragment:
  - runpod.cloud.common.WAIT
  - runpod.cloud.gpu_choice
  - runpod.cloud.lookup
  - runpod.cloud.container
  - runpod.cloud.container.POD
  - runpod.cloud.wait.HOST_KEYS
attributes:
  check_mode:
    support: full
    details:
      - Makes no create, rename or delete call and reports what would change. Never waits.
  diff_mode:
    support: full
options:
  name:
    description:
      - Name of the cluster, the usual key. The cluster is looked up by this name when O(id) is not given, and
        a new cluster gets this name.
      - With O(id) given as well, a different name renames the cluster.
      - One of O(name) and O(id) is required.
  state:
    description:
      - V(present) makes sure the cluster exists. V(absent) deletes it, which terminates all its nodes.
        A cluster that is already gone is not an error.
  type:
    description:
      - The kind of cluster. V(SLURM) and V(RAY) clusters give their nodes roles (V(SLURM_CONTROLLER) and
        V(SLURM_COMPUTE), V(RAY_HEAD) and V(RAY_WORKER)). V(TRAINING) and V(APPLICATION) clusters do not.
      - Defaults to V(TRAINING) at create.
    type: str
    choices: [TRAINING, SLURM, RAY, APPLICATION]
  gpu_type_id:
    description:
      - GPU type of every node, for example V(NVIDIA H100 80GB HBM3). A create needs this or O(gpu_requirements)
        (mutually exclusive).
      - Checked against the known GPU types before any API call.
      - With O(gpu_requirements) or O(max_price_per_hr) the create reads the catalog's cluster stock and prices
        first (C(product=CLUSTER)); a cluster's price is the GPU's list price times O(gpu_count_per_pod) times
        O(pod_count), on secure cloud.
    type: str
  gpu_count_per_pod:
    description:
      - GPUs on each node. Defaults to 1 at create.
    type: int
  pod_count:
    description:
      - Number of nodes, 2 to 250. Required to create a cluster.
    type: int
  image:
    description:
      - Container image of every node. A create needs O(image) or O(template_id).
  terminate_after:
    description:
      - A lease - every node is terminated this long after its creation (RunPod's C(createdAt)), for example
        V(1d) or V(12h) (whole seconds, at least V(1s)). Kept in each node's environment as
        E(RUNPOD_CLOUD_TERMINATE_AFTER), so any controller (the C(runpod.cloud.enforce_leases) playbook or
        rulebook) or the node's own watchdog enforces it; this task enforces nothing itself. See the collection's
        C(docs/costs.md).
      - Fixed at creation, like the nodes' other settings.
    type: raw
    version_added: 0.3.0
  template_id:
    description:
      - Id of a pod template whose container settings (image, environment, ports, disk, command) the nodes
        start from. Options given in the task win over the template. Used at create only.
      - When the task sets no container setting of its own (no O(env), O(container_disk_gb), O(docker_args),
        O(cmd), O(entrypoint), O(volume_gb) or O(network_volume_id), and O(ports) the template declares, V(22/tcp)
        among them with O(ssh=true)), the create names the template (C(templateId)), so the cluster keeps the link
        (RV(cluster.template_id)) and the template's O(runpod.cloud.template#module:registry_id) pulls a
        private image, RunPod's only way to one for a cluster. Otherwise the template's settings are copied into
        the create, and a private image cannot be pulled.
    type: str
  env:
    description:
      - Environment variables of every node's container.
  ports:
    description:
      - Ports to expose on every node, each like V(22/tcp) or V(8888/http). With O(ssh=true), V(22/tcp) is added.
  container_disk_gb:
    description:
      - Size of each node's container disk in GB.
  volume_gb:
    description:
      - Size of each node's persistent volume in GB.
  network_volume_id:
    description:
      - Id of a network volume to attach to every node. It must be in the cluster's data center.
  data_center_ids:
    description:
      - Data centers the cluster may be placed in, for example V(US-TX-3). A cluster is always placed in one
        data center.
  ssh:
    description:
      - Ask RunPod to set up SSH on every node and make sure V(22/tcp) is declared. O(wait=true) needs this.
  ssh_public_key:
    description:
      - An OpenSSH public key line authorized for C(root) on every node. It is passed as the E(PUBLIC_KEY)
        environment variable, which the sshd start-up of RunPod images reads. Without it, RunPod uses the
        keys registered with the account.
notes:
  - Clusters bill per node by the second. A failed or interrupted wait keeps the cluster; the failure
    message says how to delete it.
  - The wait proves that each node's sshd answers with an C(SSH-) banner on its public port, not that a
    login works, nor that the nodes reach each other. C(playbooks/cluster.yml) in the collection checks that
    over SSH. See the collection's C(docs/clusters.md).
seealso:
  - module: runpod.cloud.cluster_info
  - module: runpod.cloud.pod
"""

EXAMPLES = r"""
- name: Create a 4-node training cluster and wait until every node answers SSH
  runpod.cloud.cluster:
    name: llm-train
    type: TRAINING
    gpu_type_id: NVIDIA H100 80GB HBM3
    gpu_count_per_pod: 8
    pod_count: 4
    image: runpod/pytorch:2.8.0-py3.11-cuda12.8.1-cudnn-devel-ubuntu22.04
    ssh_public_key: "{{ lookup('ansible.builtin.file', '~/.ssh/id_ed25519.pub') }}"
    wait: true
    wait_timeout: 30m
  register: llm

- name: Add every node to the inventory
  ansible.builtin.add_host:
    name: "llm-node-{{ item.rank }}"
    groups: llm_nodes
    ansible_host: "{{ item.ssh.host }}"
    ansible_port: "{{ item.ssh.port }}"
    ansible_user: "{{ item.ssh.user }}"
    ansible_ssh_common_args: "{{ item.ssh.ssh_args }}"
    node_rank: "{{ item.rank }}"
    overlay_ip: "{{ item.cluster_ip }}"
  loop: "{{ llm.pods }}"
  loop_control:
    label: "{{ item.id }}"

- name: Write an MPI hostfile, primary first
  ansible.builtin.copy:
    dest: ./hostfile
    content: |
      {% for node in llm.pods %}
      {{ node.cluster_ip }} slots={{ llm.cluster.gpu_count_per_pod }}
      {% endfor %}
    mode: "0644"

- name: Delete the cluster and all its nodes
  runpod.cloud.cluster:
    name: llm-train
    state: absent
"""

RETURN = r"""
cluster:
  description:
    - The cluster as last read. The planned cluster with a null RV(cluster.id) when created in check mode;
      null after a delete.
  returned: always
  type: dict
  sample:
    id: 5c2n8m4q
    name: llm-train
    type: TRAINING
    gpu_type_id: NVIDIA H100 80GB HBM3
    gpu_count_per_pod: 8
    pod_count: 4
    data_center_id: US-TX-3
    network: {cidr: 10.65.0.0/16, vxlan_id: 42, vxlan_port: 4789}
    primary: {pod_id: a1b2c3, status: RUNNING, ssh_endpoint: "203.0.113.7:22001"}
    pods_by_status: {RUNNING: 4}
    created_at: "2026-06-29T20:00:00Z"
  contains:
    id:
      description: The cluster id.
      type: str
      returned: always
    name:
      description: The cluster name.
      type: str
      returned: always
    type:
      description: C(TRAINING), C(SLURM), C(RAY) or C(APPLICATION).
      type: str
      returned: always
    gpu_type_id:
      description: GPU type of every node.
      type: str
      returned: always
    gpu_count_per_pod:
      description: GPUs per node.
      type: int
      returned: always
    pod_count:
      description: Number of nodes.
      type: int
      returned: always
    template_id:
      description:
        - The template the cluster keeps a link to, when it was created by C(templateId) (see O(template_id));
          null when the create copied the template's settings or had none.
      type: str
      returned: always
      version_added: 0.3.0
    data_center_id:
      description: The one data center of every node; null until a node is placed.
      type: str
      returned: always
    network:
      description: The private overlay network, C({cidr, vxlan_id, vxlan_port}); null until it is provisioned.
      type: dict
      returned: always
    primary:
      description:
        - The primary node, C({pod_id, status, ssh_endpoint}) (C(ssh_endpoint) is C(host:port), null until it
          runs with SSH exposed); null until it is placed.
      type: dict
      returned: always
    pods_by_status:
      description: "Node counts by status, for example C({RUNNING: 3, PROVISIONING: 1})."
      type: dict
      returned: always
    created_at:
      description: Creation time.
      type: str
      returned: always
pods:
  description:
    - The nodes in rank order (the primary, rank 0, first), as last read. Each has the shared pod shape of
      runpod.cloud (see RV(runpod.cloud.pod#module:pod)) plus the keys below.
    - Empty in check mode, after a delete, and when RunPod has not listed the nodes yet.
  returned: always
  type: list
  elements: dict
  sample:
    - id: a1b2c3
      name: llm-train-node-0
      status: RUNNING
      runtime_status: running
      ssh: {host: 203.0.113.7, port: 22001, user: root, command: ssh root@203.0.113.7 -p 22001}
      rank: 0
      role: null
      cluster_ip: 10.65.0.2
      primary: true
  contains:
    ssh:
      description:
        - C({host, port, user, command}) of the node's public SSH port, else null.
        - After a wait that checked host keys (O(host_key_checking) not V(off)), also C(host_keys) (known_hosts
          lines of the verified or pinned keys), C(host_key_fingerprints) and C(host_key_check) (C(verified) or
          C(pinned)), as the pod module returns them.
        - C(ssh_args) (added in 0.2.0), the ssh options that trust only the checked keys (written to the node's
          known_hosts file in O(known_hosts_dir) on the controller), for C(ansible_ssh_common_args), and
          C(command) uses them; null when no key was checked (your own ssh settings decide).
      type: dict
      returned: always
    rank:
      description: The node rank (C(NODE_RANK)); null until RunPod assigns it.
      type: int
      returned: always
    role:
      description: C(SLURM_CONTROLLER), C(SLURM_COMPUTE), C(RAY_HEAD) or C(RAY_WORKER); null on TRAINING and
        APPLICATION clusters.
      type: str
      returned: always
    cluster_ip:
      description: The node's address on the cluster's private network; null until RunPod assigns it.
      type: str
      returned: always
    primary:
      description: Whether this is the primary node (rank 0).
      type: bool
      returned: always
not_ready:
  description:
    - After a failed wait, the nodes that were not ready, each C({id, name, rank, role, last_state, logs}).
    - C(logs) is the node's newest 20 lines of each log source, C({container, system, unavailable}), each line a
      C({ts, line}), newest last, with the task's secrets masked, read only for the nodes whose logs explain the
      failure (the nodes that failed or vanished; on a timeout or an interrupt the first 4 nodes not ready; the
      others say why in C(unavailable)); the failure message quotes the newest container line of the first three
      nodes read (R(the logs guide,ansible_collections.runpod.cloud.docsite.guide_logs)).
  returned: when a wait failed
  type: list
  elements: dict
  sample:
    - {id: d4e5f6, name: llm-train-node-2, rank: 2, role: null, last_state: pod status error}
placement:
  description:
    - With O(gpu_requirements) or O(max_price_per_hr), what the create tried, on success and on failure; the same
      shape as M(runpod.cloud.pod)'s (C(gpu_type_id), C(data_center_id) (always null), C(price_per_hr),
      C(attempts), C(catalog), C(dropped) with C(reason) V(stock) or V(price)).
  returned: when the task sent a create with O(gpu_requirements) or O(max_price_per_hr), or refused one by price
  type: dict
  sample:
    gpu_type_id: NVIDIA A100 80GB PCIe
    data_center_id: null
    price_per_hr: 13.12
    catalog: read
    dropped: [{gpu_type_id: NVIDIA H100 80GB HBM3, data_center_id: null, price_per_hr: 23.92, reason: price}]
    attempts: [{gpu_type_id: NVIDIA A100 80GB PCIe, data_center_id: null, price_per_hr: 13.12, status: 201,
                detail: created}]
actions:
  description: What the task did (or would do in check mode), in order; items are C(create), C(adopt), C(update)
    (a rename) and C(delete).
  returned: always
  type: list
  elements: str
  sample: [create]
updated_fields:
  description: Fields changed (or that would be changed); only C(name) can be.
  returned: when an update was made or would be made
  type: list
  elements: str
  sample: [name]
wait:
  description:
    - How the wait went, C(elapsed), C(polls), C(probes), C(history), C(last_state), C(last_states) (each
      node's last state) and, on success, C(ready_detail).
  returned: when the module waited
  type: dict
  sample:
    elapsed: 240
    polls: 48
    probes: 31
    last_state: all 4 pods ready
    ready_detail: all 4 pods ready
code:
  description:
    - Machine-readable failure code, for example C(conflict) (a setting that cannot change differs, or a node
      went down during the wait), C(wait_timeout), C(wait_interrupted), C(not_found), C(ambiguous), C(bad_request),
      C(price_cap_exceeded), C(catalog_unavailable), C(no_match), C(no_capacity).
  returned: on failure
  type: str
  sample: conflict
id:
  description: Id of the cluster the failure concerns, when there is one.
  returned: on failure, when a cluster is involved
  type: str
  sample: 5c2n8m4q
ids:
  description: Ids of the clusters sharing O(name) when the task failed because the name is ambiguous.
  returned: on ambiguity failure
  type: list
  elements: str
diff:
  description: Before and after views of the cluster.
  returned: with C(--diff), when something changed
  type: dict
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.runpod.cloud.plugins.module_utils._api.pod_inputs import ClusterInput
from ansible_collections.runpod.cloud.plugins.module_utils._backend.clusters import Clusters
from ansible_collections.runpod.cloud.plugins.module_utils._backend.connection import Gpus
from ansible_collections.runpod.cloud.plugins.module_utils._backend.secrets import Secrets
from ansible_collections.runpod.cloud.plugins.module_utils._backend.templates import Templates
from ansible_collections.runpod.cloud.plugins.module_utils._module.base import HANDOFF_KEY, run_module
from ansible_collections.runpod.cloud.plugins.module_utils._module.cluster_waiter import ClusterWaiter
from ansible_collections.runpod.cloud.plugins.module_utils._module.resource import ResourceModule
from ansible_collections.runpod.cloud.plugins.module_utils._module.specs import (
    AUTH_ARGUMENT_SPEC,
    CONTAINER_ARGUMENT_SPEC,
    GPU_CHOICE_ARGUMENT_SPEC,
    HOST_KEY_ARGUMENT_SPEC,
    LOOKUP_ARGUMENT_SPEC,
    POD_CONTAINER_ARGUMENT_SPEC,
    WAIT_ARGUMENT_SPEC,
    argument_spec,
)
from ansible_collections.runpod.cloud.plugins.module_utils._rules.common import rename_change
from ansible_collections.runpod.cloud.plugins.module_utils._rules.pod_rules import wanted_env
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.cluster_fields import (
    CLUSTER,
    ClusterSpec,
    describe_cluster,
)
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.fields import port_set, with_ssh_port

ARGUMENT_SPEC = argument_spec(
    AUTH_ARGUMENT_SPEC,
    WAIT_ARGUMENT_SPEC,
    HOST_KEY_ARGUMENT_SPEC,
    GPU_CHOICE_ARGUMENT_SPEC,
    LOOKUP_ARGUMENT_SPEC,
    CONTAINER_ARGUMENT_SPEC,
    POD_CONTAINER_ARGUMENT_SPEC,
    type=dict(type="str", choices=["TRAINING", "SLURM", "RAY", "APPLICATION"]),
    gpu_type_id=dict(type="str"),
    gpu_count_per_pod=dict(type="int"),
    pod_count=dict(type="int"),
    template_id=dict(type="str"),
    terminate_after=dict(type="raw"),
)


class ClusterModule(ResourceModule):
    """The wait and the members it describes (``pods``) are ``ClusterWaiter``'s (``self.waiter``), which the action
    plugin that runs the wait on the controller builds too (plugins/action/cluster.py)."""

    uses = (Clusters, Gpus, Secrets, Templates)

    resource_kind = "cluster"
    waiter_class = ClusterWaiter
    track_actions = True
    keep_deleted = False
    adopt_after_failed_create = True
    input_model = ClusterInput  # every input rule, before any API call

    def __init__(self, module, **seat):
        super().__init__(module, **seat)
        self.result["pods"] = []

    def describe(self, resource):
        return describe_cluster(resource)

    def exit(self, **extra):
        # A handoff exits right before the wait, which lists the members itself: no read here.
        if HANDOFF_KEY not in extra and self.params["state"] == "present" and self.last_seen is not None \
                and self.waiter.members is None and not self.module.check_mode:
            self.waiter.read_members(self.last_seen)
        self.waiter.describe_members()
        super().exit(**extra)

    # --- hooks: lookup ----------------------------------------------------------------------------------
    def read(self, resource_id):
        return self.backend.clusters.get(resource_id)

    def find_by_name(self, name):
        return self.backend.clusters.find(name)

    # --- present --------------------------------------------------------------------------------------
    def build_spec(self):
        p = self.params
        given = {row.name: p.get(row.option) for row in CLUSTER.rows if row.option}
        given.update(ports=with_ssh_port(p["ports"], p["ssh"]), env=wanted_env(p) or {})
        return ClusterSpec(**{name: value for name, value in given.items() if value is not None})

    def create(self, spec):
        if spec.gpu_requirements is None and spec.max_price_per_hr is None:
            return self.backend.clusters.create(spec)
        return self.create_placed(lambda: self.backend.clusters.create_placed(spec))

    def check_found(self, current):
        """Fail clearly on settings RunPod cannot change in place (the rename is the only update there is)."""
        if current is None:
            return
        differences = self.fixed_differences(current, self.waiter.read_members(current))
        if differences:
            self.fail(
                f"cluster {current.id} ({current.name!r}) differs from the task in settings RunPod fixes when a "
                f"cluster is created: {'; '.join(differences)}. Nothing was changed. To get the new settings, "
                f"delete the cluster (runpod.cloud.cluster id={current.id} state=absent) and run the task again.",
                code="conflict",
                resource_id=current.id,
            )

    def fixed_differences(self, cluster, members):
        p = self.params
        found = []
        for option, actual in (("gpu_type_id", cluster.gpu_type_id), ("gpu_count_per_pod", cluster.gpu_count_per_pod),
                               ("pod_count", cluster.pod_count)):
            if p[option] is not None and actual is not None and p[option] != actual:
                found.append(f"{option} is {actual!r}, not {p[option]!r}")
        if p["type"] and cluster.type and p["type"] != cluster.type:
            found.append(f"type is {cluster.type}, not {p['type']}")
        if p["data_center_ids"] and cluster.data_center_id and cluster.data_center_id not in p["data_center_ids"]:
            found.append(f"data center is {cluster.data_center_id}, not one of {', '.join(p['data_center_ids'])}")
        node = next((pod for pod in members if pod.status.upper() != "TERMINATED"), None)
        if node is None:
            return found
        if p["image"] and node.image and p["image"] != node.image:
            found.append(f"image is {node.image!r}, not {p['image']!r}")
        for option in ("cmd", "entrypoint"):
            if p[option] is not None and getattr(node, option) not in (None, p[option]):
                found.append(f"{option} is {getattr(node, option)!r}, not {p[option]!r}")
        if p["container_disk_gb"] is not None and node.container_disk_gb not in (None, p["container_disk_gb"]):
            found.append(f"container_disk_gb is {node.container_disk_gb}, not {p['container_disk_gb']}")
        wanted_ports = port_set(with_ssh_port(p["ports"], p["ssh"]))
        if p["ports"] is not None and wanted_ports != port_set(node.ports):
            found.append(f"ports are {port_set(node.ports)}, not {wanted_ports}")
        env = wanted_env(p) or {}
        changed_env = sorted(key for key, value in env.items() if node.env.get(key) != value)
        if changed_env:
            found.append(f"env differs in {', '.join(changed_env)}")
        return found

    def changes(self, current):
        return rename_change(self.params, current)

    def update(self, current, changes):
        return self.backend.clusters.rename(current.id, changes["name"])

    def delete(self, current):
        self.backend.clusters.delete(current.id)
        self.waiter.members = []


def main():
    module = AnsibleModule(
        argument_spec=ARGUMENT_SPEC,
        mutually_exclusive=[("image", "template_id")],
        required_one_of=[("name", "id")],
        supports_check_mode=True,
    )
    run_module(ClusterModule, module)


if __name__ == "__main__":
    main()

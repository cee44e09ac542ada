# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations


class ModuleDocFragment:
    # Paired with CONTAINER_ARGUMENT_SPEC in plugins/module_utils/_module/specs.py: change both together. The
    # container settings of a pod, a cluster's nodes, an endpoint's workers and a template; a module replaces an
    # option's description where its own container differs (every node, the workers, what an update does).
    DOCUMENTATION = r"""
options:
  image:
    description:
      - Container image.
    type: str
  env:
    description:
      - Environment variables of the container. Keys are variable names (letters, digits and C(_), not starting
        with a digit); values are strings, and numbers are sent as text. Booleans, nulls, lists and mappings are
        refused with C(code=bad_request).
    type: dict
  secret_env:
    description:
      - Environment variables whose values come from account secrets (see M(runpod.cloud.secret)), as a mapping
        of variable names to secret names. Each becomes the env value C({{ RUNPOD_SECRET_<name> }}), which RunPod
        replaces with the secret's value when the container boots; the module builds it, so a playbook never
        writes the placeholder (Ansible would try to template it). The value itself never passes through Ansible.
      - Merged into O(env) and compared as part of it, so a rerun reports no change. A variable given in both
        O(env) and O(secret_env) is refused.
      - Every secret named must exist on the account; a missing one fails the task with C(code=bad_request)
        before anything is created or changed (one extra read of the account's secrets).
      - A running container keeps the value it booted with; a rotated secret reaches it at its next boot (a
        restart, or the next worker release of an endpoint). See the collection's C(docs/secrets.md).
    type: dict
    version_added: 0.3.0
  ports:
    description:
      - Ports to expose, each like V(22/tcp) or V(8888/http) (a port 1 to 65535, protocol V(http) or V(tcp), no
        port twice).
    type: list
    elements: str
  container_disk_gb:
    description:
      - Container disk size in GB, 1 to 4096.
    type: int
  docker_args:
    description:
      - Command (arguments) the container is started with, replacing the image's default, as one shell string.
      - Not together with O(cmd) or O(entrypoint) (two forms of one command; refused before any call).
    type: str
  cmd:
    description:
      - The container's command in exec form (the image's C(CMD), or the arguments of its entrypoint), one list
        entry per argument, no shell involved. V([]) clears it on an existing resource.
    type: list
    elements: str
    version_added: 0.3.0
  entrypoint:
    description:
      - The container's entrypoint in exec form, replacing the image's C(ENTRYPOINT). V([]) clears it on an
        existing resource.
    type: list
    elements: str
    version_added: 0.3.0
"""

    # Pod, endpoint and template. Paired with REGISTRY_ARGUMENT_SPEC.
    REGISTRY = r"""
options:
  registry_id:
    description:
      - Id of the container registry credential RunPod pulls a private image with (see
        M(runpod.cloud.container_registry)).
    type: str
    version_added: 0.2.0
"""

    # A pod's container, and each node of a cluster (runpod.cloud.pod, runpod.cloud.cluster). Paired with
    # POD_CONTAINER_ARGUMENT_SPEC.
    POD = r"""
options:
  volume_gb:
    description:
      - Size of the pod volume in GB (kept while the pod exists), 10 to 4096, or V(0) for no volume.
    type: int
  volume_mount_path:
    description:
      - Where the volume (or network volume) is mounted, default V(/workspace).
    type: str
  network_volume_id:
    description:
      - Id of a network volume to attach at create (see M(runpod.cloud.network_volume)). The pod runs in the
        volume's data center.
    type: str
  data_center_ids:
    description:
      - Data centers the pod may be placed in, for example V(US-TX-3), at create.
    type: list
    elements: str
  ssh:
    description:
      - Ask RunPod to start SSH in the pod and make sure V(22/tcp) is declared at create.
    type: bool
    default: true
  ssh_public_key:
    description:
      - An OpenSSH public key line authorized for C(root) in the pod. It is passed as the E(PUBLIC_KEY)
        environment variable, which the sshd start-up of RunPod images reads.
    type: str
"""

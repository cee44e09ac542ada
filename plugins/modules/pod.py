# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: pod
short_description: Create, update, start, stop, restart and delete RunPod pods, and wait until SSH answers
version_added: 0.1.0
description:
  - Manages one RunPod pod, found by O(id), else by O(name).
  - Names are not unique on RunPod, so this module enforces it. A lookup by name that finds several live pods
    fails and lists their ids. A pod is never created twice for one name, also not after a create that
    answered with a server error (the module lists pods by name and adopts the one it finds) or after a
    timed-out wait (the rerun finds the pod and resumes waiting on it).
  - Mutable fields that differ on an existing pod (O(image), O(docker_args), O(cmd), O(entrypoint),
    O(container_disk_gb), O(volume_gb), O(volume_mount_path), O(ports), O(env), O(name) when O(id) is given) are
    changed with one update call.
    B(RunPod restarts the pod's container when a pod is updated:) its processes start again and files outside
    its volume are lost, and the task warns so. Other create options (GPU type and count,
    cloud type, data center, network volume, CPU flavor) cannot be changed on an existing pod; a difference
    is reported as a warning and left alone.
  - RunPod refuses a create body over 102,400 bytes (HTTP 413); such a create is refused before any call with
    C(code=bad_request), naming the option that makes most of it (usually O(env), O(docker_args) or O(cmd)).
  - With O(wait=true) the module blocks until the pod is ready (see O(wait_for)). A failed wait never deletes
    anything; the task fails with the pod's id, its last known state and how to inspect or delete it.
  - With O(count), one task manages a fleet of pods named C({name}-1) to C({name}-N); see O(count).
extends_documentation_fragment:
  - runpod.cloud.common.WAIT
  - runpod.cloud.wait.POD
  - runpod.cloud.gpu_choice
  - runpod.cloud.lookup
  - runpod.cloud.container
  - runpod.cloud.container.REGISTRY
  - runpod.cloud.container.POD
attributes:
  check_mode:
    support: full
    details:
      - Makes no create, update, start, stop, restart or delete call and reports what would change. Never waits.
  diff_mode:
    support: full
options:
  name:
    description:
      - Name of the pod, the usual key. The pod is looked up by this name when O(id) is not given, and a
        new pod gets this name.
      - With O(id) given as well, a different name renames the pod, unless another live pod already has that
        name (then the task fails with C(code=conflict) and changes nothing).
      - At most 191 characters, without leading or trailing whitespace (a YAML C(|) block adds a newline) and
        without control characters; anything else fails with C(code=bad_request) before any API call, because
        such a name could never be found again and every run would create another pod.
      - One of O(name) and O(id) is required.
  id:
    description:
      - Id of an existing pod. Takes precedence over O(name) for the lookup.
      - An O(id) that does not exist (or names a terminated pod) never creates anything.
  state:
    description:
      - V(present) makes sure the pod exists; a new pod is created running. An existing stopped pod is left
        stopped.
      - V(running) makes sure the pod exists and is started (a stopped pod is started).
      - V(stopped) stops the pod. Fails, creating nothing, when the pod does not exist.
      - V(restarted) restarts the pod's container (starts it if it is stopped). Fails, creating nothing, when the
        pod does not exist. It is also how a task changes the lease of a running pod (O(stop_after)), which RunPod
        applies with a restart.
      - V(absent) deletes (terminates) the pod. A pod that is already gone is not an error. Only the pod found
        by O(id) or O(name) is ever deleted.
      - O(wait) applies to V(present), V(running) and V(restarted).
    type: str
    choices: [present, running, stopped, restarted, absent]
    default: present
  image:
    description:
      - Container image, for example V(runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04).
      - A create needs O(image) or O(template_id); the two are mutually exclusive.
  template_id:
    description:
      - Id of a pod template to create the pod from. Used at create only.
    type: str
  compute_type:
    description:
      - Whether the pod runs on GPUs (O(gpu_type_ids)) or CPUs only (O(cpu_flavor_ids)).
    type: str
    choices: [GPU, CPU]
    default: GPU
  gpu_type_ids:
    description:
      - GPU types to create the pod on, in order of preference. On REST v2 one catalog read before the first
        create drops the types without stock and keeps the rest in this order; then one create per candidate
        until one is placed (see RV(placement) and the guide docs/gpu-capacity.md, "Getting a GPU when stock is short").
      - Checked against the known GPU types before any API call; unknown names fail with suggestions.
      - A GPU pod create needs this or O(gpu_requirements) (mutually exclusive). With O(max_price_per_hr), the
        types listed above the cap are dropped, and the rest keep this order.
    type: list
    elements: str
  gpu_count:
    description:
      - Number of GPUs, 1 to 16. Defaults to 1 at create. Above the GPU type's own maximum the API refuses the
        create.
    type: int
  global_networking:
    description:
      - Give the pod a private address reachable from the account's other globally networked pods across data
        centers (RunPod's global networking), shown in RV(pod.global_ip) and RV(pod.internal_dns).
      - RunPod offers it for NVIDIA GPU pods in the data centers that support it (C(globalNetwork) in the data
        center catalog), and refuses the create elsewhere.
      - Changed in place on an existing pod; RunPod applies the change at the pod's next start or restart.
    type: bool
    version_added: 0.2.0
  cpu_flavor_ids:
    description:
      - CPU flavors (for example V(cpu3c), V(cpu5c)) tried in order, for O(compute_type=CPU).
    type: list
    elements: str
  vcpu_count:
    description:
      - Number of vCPUs of a CPU pod, a power of two from 2 to 512. Defaults to 2 at create (RunPod's documented
        default; REST v2 needs a value).
    type: int
  cloud_type:
    description:
      - V(SECURE) (RunPod's data centers) or V(COMMUNITY) (hosts run by third parties).
      - Community hosts do not all have a public IP, and REST v2 cannot ask for one, so a wait for SSH may never
        see a public port for 22 (a warning says so).
    type: str
    choices: [SECURE, COMMUNITY]
    default: SECURE
  container_disk_gb:
    description:
      - Size of the container disk in GB (lost when the pod stops), 1 to 4096.
  volume_gb:
    description:
      - Size of the pod volume in GB (kept while the pod exists), 10 to 4096, or V(0) for no volume.
      - A CPU pod cannot have one (refused before any API call); use O(network_volume_id).
  registry_id:
    description:
      - Id of the container registry credential RunPod pulls a private image with (see
        M(runpod.cloud.container_registry)). Changed in place on an existing pod.
    version_added: 0.2.0
  ports:
    description:
      - Ports to expose, each like V(22/tcp) or V(8888/http) (a port 1 to 65535, protocol V(http) or V(tcp),
        no port twice).
      - With O(ssh=true), V(22/tcp) is added when port 22 is not in the list.
      - On an existing pod the ports are only managed when this option is given; the whole list is replaced.
  env:
    description:
      - Environment variables of the container. Keys are variable names (letters, digits and C(_), not starting
        with a digit); values are strings, and numbers are sent as text. Booleans, nulls, lists and mappings are
        refused (quote the value, or serialize it with C(to_json)).
      - On an existing pod the environment is only managed when this option (or O(ssh_public_key)) is given;
        the whole environment is replaced, except that an existing E(PUBLIC_KEY) is kept unless
        O(ssh_public_key) or O(env) sets it.
      - Changing it on a pod that runs restarts the pod's container (the task warns).
  docker_args:
    description:
      - Command (arguments) the container is started with, replacing the image's default.
      - An image started with its own command may never start sshd, so a wait for SSH may not succeed.
  cmd:
    description:
      - The container's command in exec form, one entry per argument (see O(docker_args) for the shell form,
        which it replaces; not both). V([]) clears it on an existing pod.
      - As with O(docker_args), a command of the task's own may never start sshd.
  entrypoint:
    description:
      - The container's entrypoint in exec form, replacing the image's C(ENTRYPOINT). V([]) clears it.
  data_center_ids:
    description:
      - Data centers the pod may be placed in (for example V(US-TX-3)), at create. Each must look like a RunPod
        data center id.
      - On REST v2 each GPU type is tried in each of these data centers (the ones with more stock first).
  allowed_cuda_versions:
    description:
      - CUDA versions the host may run, as C(major.minor) (for example V(12.8)), at create of a GPU pod.
      - Mutually exclusive with O(min_cuda_version) (refused before any API call).
    type: list
    elements: str
    version_added: 0.2.0
  min_cuda_version:
    description:
      - Lowest CUDA version the host may run, as C(major.minor), at create of a GPU pod.
      - Mutually exclusive with O(allowed_cuda_versions) (refused before any API call).
    type: str
    version_added: 0.2.0
  ssh:
    description:
      - Ask RunPod to start SSH in the pod and make sure V(22/tcp) is declared at create.
      - O(wait_for=ssh) with O(wait=true) needs this.
  ssh_public_key:
    description:
      - An OpenSSH public key line authorized for C(root) in the pod. It is passed as the E(PUBLIC_KEY)
        environment variable, which the sshd start-up of RunPod images reads.
      - RunPod images start sshd only when a key reaches the container. Before creating a pod that O(wait_for=ssh)
        will wait for, the module checks that one does (this option, E(PUBLIC_KEY) in O(env), a E(PUBLIC_KEY) in
        the template's environment, or a key registered on the account, which O(ssh=true)
        injects) and otherwise fails with C(bad_request) before the create; see O(own_sshd).
  wait_for:
    description:
      - What O(wait=true) waits for.
      - V(ssh) (default) waits until the public port mapped to the pod's private port 22 accepts a TCP
        connection and answers with an C(SSH-) banner, then checks the pod's host key (see O(host_key_checking)).
        This proves sshd is up, not that a login will work.
      - V(running) waits until RunPod reports the pod running with its container up (runtime reported),
        which can be minutes before sshd answers. No host key is checked.
      - V(login) does what V(ssh) does, then logs in as the pod's user (C(root)) with O(ssh_private_key_file)
        (OpenSSH's C(ssh) in batch mode, trusting only the host key the check accepted) and runs C(true); the pod
        is ready only when that succeeds. A key the pod refuses fails at once with RV(code=login_refused) and the
        likely reason (no key reached the pod, another key, root logins refused), with the pod's log lines;
        network errors and an sshd still starting keep the wait going. Requires O(ssh_private_key_file).
      - After a V(login) wait the task (run on the controller) arms the pod's lease watchdog over the same kind of
        login, so a pod with a lease in its env (C(RUNPOD_CLOUD_STOP_AFTER), ...) stops or terminates itself when
        no controller is left; a pod without a lease is left alone (see RV(watchdog) and the collection's
        C(docs/watchdog.md)).
    type: str
    choices: [ssh, running, login]
    default: ssh
  host_key_checking:
    description:
      - How a wait for V(ssh) or V(login) trusts the pod's SSH host key. Once the banner answers, the wait reads
        the host keys the pod presents (OpenSSH's C(ssh-keyscan) on the controller) and the C(ssh-keygen -lf)
        fingerprint lines RunPod's start script prints into the container log (read over the authenticated API),
        and compares them. The result is in RV(pod.ssh.host_key_check), with RV(pod.ssh.host_keys) and
        RV(pod.ssh.host_key_fingerprints).
      - V(log) (default) is ready with a verified key when the log shows fingerprints, else pins the keys seen at
        readiness with a warning.
      - V(strict) is ready only with a verified key; a pod whose log never shows fingerprints fails with
        RV(code=host_key_unverified) when its wait ends, naming the keys it saw.
      - V(off) checks nothing (no scan, no log read).
      - With V(log) and V(strict), a presented key that is not among the logged fingerprints fails at once with
        RV(code=host_key_mismatch), naming both fingerprints and the pod. The pod is kept, never deleted.
      - See the collection's C(docs/pods.md) (section Trusting the pod's host key).
    type: str
    choices: [strict, log, 'off']
    default: log
    version_added: 0.3.0
  ssh_private_key_file:
    description:
      - The private key O(wait_for=login) logs in with. It must not have a passphrase, as nothing can prompt for
        one. Its public half must reach the pod (O(ssh_public_key), or a key registered on the account).
      - Read by O(wait_for=login), which refuses to run without it before any API call. Given with any wait, it
        is also the C(-i) of RV(pod.ssh.command).
    type: path
    version_added: 0.3.0
  stop_after:
    description:
      - A lease - stop the pod this long after its creation (RunPod's C(createdAt)), for example V(8h), V(90m) or a
        number of seconds (whole seconds, at least V(1s)). A stopped pod keeps its volume and bills only for it.
      - The lease is kept in the pod's environment (E(RUNPOD_CLOUD_STOP_AFTER)), so any controller can enforce it -
        the C(runpod.cloud.enforce_leases) playbook, the C(runpod.cloud.enforce_leases) rulebook of
        C(runpod.cloud.watch), or the pod's own watchdog. Nothing is enforced by this task itself. See the
        collection's C(docs/costs.md).
      - On an existing pod a different lease is an env change, shown in diff and check mode. RunPod applies env
        changes by restarting the container, so on a running pod the task fails with the reason, changing
        nothing, unless O(state=restarted) asks for that restart. A task that names no lease keeps the pod's.
    type: raw
    version_added: 0.3.0
  terminate_after:
    description:
      - A lease - terminate (delete) the pod this long after its creation; its volume is lost. Must be after
        O(stop_after) when both are given. Kept as E(RUNPOD_CLOUD_TERMINATE_AFTER); see O(stop_after).
    type: raw
    version_added: 0.3.0
  idle_stop_after:
    description:
      - Stop (never terminate) the pod once every GPU has stayed below O(idle_below) percent utilization for this
        long. Kept as E(RUNPOD_CLOUD_IDLE_STOP_AFTER); enforced by the rulebook (which tracks utilization across
        its reads) and the pod's watchdog, not by the playbook.
    type: raw
    version_added: 0.3.0
  idle_below:
    description:
      - The GPU utilization percent (1 to 100) under which O(idle_stop_after) counts a GPU idle. Defaults to V(5)
        with O(idle_stop_after); needs it. Kept as E(RUNPOD_CLOUD_IDLE_BELOW).
    type: int
    version_added: 0.3.0
  known_hosts_dir:
    description:
      - The directory on the controller where the action plugin writes one known_hosts file per pod
        (C(known_hosts_<pod id>), mode 0600, the directory 0700) holding RV(pod.ssh.host_keys) after a wait that
        checked them; RV(pod.ssh.ssh_args) and RV(pod.ssh.command) point at it. The inventory plugin's
        C(known_hosts_dir) has the same default, so both write the same file for a pod.
    type: path
    default: ~/.cache/runpod.cloud/known_hosts
    version_added: 0.3.0
  own_sshd:
    description:
      - The image starts its own sshd with keys it brings, so O(wait_for=ssh) does not need a key to reach the pod.
      - Without it, a create that would wait for ssh with no key reaching the pod is refused before any API call
        that could bill (the wait could only time out with "connection refused").
    type: bool
    default: false
  count:
    description:
      - Manage a fleet of this many pods (1 to 100) in one task. O(name) is the base name; the pods are
        C({name}-1) to C({name}-N), each found by its name like a single pod, and every other option applies
        to each pod (O(state) too). Requires O(name); cannot be combined with O(id).
      - Existing pods are reused, so a rerun changes nothing. Pods named C({name}-K) with K greater than
        O(count) are never touched; to scale down, delete them explicitly (O(state=absent) on their names).
      - The changes run concurrently (see O(create_concurrency)); each create follows the same placement
        rules as a single pod's. With O(wait=true), one batch wait covers every pod (one pod list read per
        interval, SSH probes in between).
      - When some pods fail, the task fails after every create has settled, keeps every pod there is (listed
        in RV(ids)), lists each failure in RV(failures), and deletes nothing.
      - The result has RV(pods) (in index order) and RV(ids) instead of RV(pod).
    type: int
    version_added: 0.2.0
  create_concurrency:
    description:
      - With O(count), how many pods are created (or updated, started, stopped, deleted) at once, 1 to 50.
      - They share one view of RunPod's quota (see O(create_timeout)); when a quota window is spent, every one
        of them waits for its reset instead of provoking rate limit answers (HTTP 429).
    type: int
    default: 10
    version_added: 0.2.0
  create_timeout:
    description:
      - How long the creates of this task (with O(count), of every pod) may wait for RunPod's per-user quota
        when O(wait=false). With O(wait=true) the budget is O(wait_timeout) instead.
      - Requests are paced by the quota RunPod announces on every answer (C(RateLimit-Policy), C(RateLimit)); when
        a window is spent the task waits for its reset, and a rate limit answer (HTTP 429) is waited out for its
        C(Retry-After). Each pause is reported once, naming the window and when the task resumes.
      - Only a quota that cannot reset within this budget fails the task, with RV(code=rate_limited), the window
        and its reset time in RV(quota), and the pods created so far in RV(ids). A create that answered 429 created
        nothing, so it is sent again; no pod is ever created twice.
      - A duration in the format of O(wait_timeout). Checked before any API call.
      - See the collection's C(docs/pods.md) (section Fleets and RunPod's quotas).
    type: raw
    default: 10m
    version_added: 0.2.0
notes:
  - Pods bill by the second while they run. A failed or interrupted wait keeps the pod; the failure message
    says how to delete it.
  - With O(count), scaling down is never implicit; see the collection's C(docs/pods.md) (section Fleets).
  - O(wait_for=ssh) proves that sshd answers with an C(SSH-) banner on the public port mapped to the pod's
    port 22, not that a login works. See the collection's C(docs/pods.md).
seealso:
  - module: runpod.cloud.pod_info
"""

EXAMPLES = r"""
- name: Create a GPU pod and wait until SSH answers
  runpod.cloud.pod:
    name: trainer
    image: runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04
    gpu_type_ids:
      - NVIDIA GeForce RTX 4090
      - NVIDIA RTX A6000
    container_disk_gb: 50
    ports:
      - 8888/http
    ssh_public_key: "{{ lookup('ansible.builtin.file', '~/.ssh/id_ed25519.pub') }}"
    wait: true
    wait_timeout: 15m
  register: trainer

# ssh_args trusts only the host key the wait checked (a known_hosts file per pod on the controller), so this works
# with Ansible's default host key checking and a known_hosts that has never seen the pod.
- name: Add the pod to the inventory
  ansible.builtin.add_host:
    name: trainer
    ansible_host: "{{ trainer.pod.ssh.host }}"
    ansible_port: "{{ trainer.pod.ssh.port }}"
    ansible_user: "{{ trainer.pod.ssh.user }}"
    ansible_ssh_common_args: "{{ trainer.pod.ssh.ssh_args }}"

- name: List the pod's GPUs over SSH
  ansible.builtin.command: nvidia-smi -L
  delegate_to: trainer
  changed_when: false

- name: Show how to log in by hand (the same host key settings)
  ansible.builtin.debug:
    msg: "{{ trainer.pod.ssh.command }}"

- name: Stop the pod
  runpod.cloud.pod:
    name: trainer
    state: stopped

- name: Start it again and wait until the container runs
  runpod.cloud.pod:
    name: trainer
    state: running
    wait: true
    wait_for: running

- name: Delete the pod
  runpod.cloud.pod:
    name: trainer
    state: absent

- name: Create eight pods worker-1 .. worker-8 and wait once until all answer on SSH
  runpod.cloud.pod:
    name: worker
    count: 8
    image: runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04
    gpu_type_ids:
      - NVIDIA GeForce RTX 4090
    ssh_public_key: "{{ lookup('ansible.builtin.file', '~/.ssh/id_ed25519.pub') }}"
    wait: true
    wait_timeout: 20m
  register: workers

- name: The cheapest GPU with 24 GB or more that is in stock, never above 1 USD/h
  runpod.cloud.pod:
    name: cheap-trainer
    image: runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04
    gpu_requirements:
      min_memory_gb: 24
      manufacturer: NVIDIA
    max_price_per_hr: 1.0
    ssh_public_key: "{{ lookup('ansible.builtin.file', '~/.ssh/id_ed25519.pub') }}"
    wait: true
  register: cheap

- name: Scale down to six (worker-7 and worker-8 are deleted explicitly)
  runpod.cloud.pod:
    name: "worker-{{ item }}"
    state: absent
  loop: [7, 8]

- name: A pod that stops itself after 8 hours and is deleted after a day, whoever forgets it
  runpod.cloud.pod:
    name: overnight
    image: runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04
    gpu_type_ids:
      - NVIDIA GeForce RTX 4090
    stop_after: 8h
    terminate_after: 1d
    idle_stop_after: 30m
  register: overnight

- name: Say when it stops and what it will have cost by then
  ansible.builtin.debug:
    msg: >-
      {{ overnight.pod.lease.action }} at {{ overnight.pod.lease.deadline }},
      about {{ overnight.pod.lease.cost_to_deadline }} USD more
"""

RETURN = r"""
pod:
  description:
    - The pod as last read (the shared pod shape of every runpod.cloud module). Null after a delete, and in
      check mode when the pod would be created.
    - Null with O(count) (see RV(pods)).
  returned: always
  type: dict
  sample:
    id: abc123xyz
    name: trainer
    status: RUNNING
    runtime_status: running
    runtime_status_reason: null
    uptime_seconds: 42
    image: runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04
    gpu: {type: NVIDIA GeForce RTX 4090, count: 1, vcpu_count: 16, memory_gb: 62}
    cost_per_hr: 0.69
    data_center_id: US-TX-3
    ports: [8888/http, 22/tcp]
    ssh: {host: 203.0.113.7, port: 40123, user: root, command: ssh root@203.0.113.7 -p 40123}
    ssh_not_ready: null
    created_at: "2026-01-01T00:00:00Z"
  contains:
    id:
      description: The pod id.
      type: str
      returned: always
    name:
      description: The pod name.
      type: str
      returned: always
    status:
      description: The API's lifecycle value (REST v2 C(status)).
      type: str
      returned: always
    runtime_status:
      description: Derived status, one of C(running), C(initializing), C(stopped), C(terminated), C(unknown).
      type: str
      returned: always
    runtime_status_reason:
      description: Why, for example C(awaiting_container) or C(container_error); null when there is nothing to say.
      type: str
      returned: always
    uptime_seconds:
      description: Container uptime, only while running.
      type: int
      returned: always
    image:
      description: Container image.
      type: str
      returned: always
    gpu:
      description:
        - GPU type and count (C(type) null and C(count) 0 on CPU pods).
        - C(vcpu_count) and C(memory_gb), the host vCPUs and RAM (GB) allocated with the pod's GPUs, all GPUs
          together (added in 0.3.0; null when RunPod does not say, and on CPU pods).
      type: dict
      returned: always
    cost_per_hr:
      description: Price in USD per hour.
      type: float
      returned: always
    data_center_id:
      description: Data center the pod runs in.
      type: str
      returned: always
    ports:
      description: Declared ports.
      type: list
      elements: str
      returned: always
    ssh:
      description:
        - C({host, port, user, command}) when a public address for port 22 exists and the pod is not stopped or
          terminated, else null.
        - After a wait for V(ssh) or V(login) that checked the host key (O(host_key_checking) not V(off)), also
          RV(pod.ssh.host_keys), RV(pod.ssh.host_key_fingerprints) and RV(pod.ssh.host_key_check).
      type: dict
      returned: always
      contains:
        ssh_args:
          description:
            - The ssh options that trust only the host keys the wait checked, for
              C(ansible_ssh_common_args) (see EXAMPLES) or C(ssh), namely
              C(-o StrictHostKeyChecking=yes -o UserKnownHostsFile=<known_hosts_dir>/known_hosts_<pod id>), the file
              written on the controller from RV(pod.ssh.host_keys) (O(known_hosts_dir)).
            - Null when no host key was checked (O(host_key_checking=off), O(wait=false), a wait for V(running),
              check mode, or a task run with C(async)); then nothing is trusted on your behalf, your own ssh settings
              and known_hosts decide.
            - Keep Ansible's C(host_key_checking) on (its default), or Ansible puts C(StrictHostKeyChecking=no)
              ahead of these options.
          type: str
          returned: when RV(pod.ssh) is not null
          version_added: 0.3.0
          sample: >-
            -o StrictHostKeyChecking=yes -o UserKnownHostsFile=/root/.cache/runpod.cloud/known_hosts/known_hosts_a1
        command:
          description:
            - The ssh command line to log in, as it works when pasted into a shell, with RV(pod.ssh.ssh_args) (when
              not null), C(-i <ssh_private_key_file>) when O(ssh_private_key_file) is given, C(-p <port> <user>@<host>).
          type: str
          returned: when RV(pod.ssh) is not null
          sample: >-
            ssh -o StrictHostKeyChecking=yes -o UserKnownHostsFile=/root/.cache/runpod.cloud/known_hosts/known_hosts_a1
            -p 40123 root@203.0.113.7
        host_keys:
          description:
            - known_hosts lines for C([host]:port) of the verified keys, or of every presented key when pinned.
              RV(pod.ssh.ssh_args) trusts them (the action plugin writes them to a known_hosts file).
          type: list
          elements: str
          returned: after a wait that checked the host key
          sample:
            - "[203.0.113.7]:40123 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILXGDN/SclOozk1xsDztpmhGiKkkrfQB9SKoO8dSIQQZ"
        host_key_fingerprints:
          description: The C(SHA256:) fingerprint of every host key the pod presented.
          type: list
          elements: str
          returned: after a wait that checked the host key
        host_key_check:
          description:
            - C(verified) (a presented key's fingerprint is in the container log), or C(pinned) (the log showed no
              fingerprints; only under O(host_key_checking=log), with a warning).
          type: str
          returned: after a wait that checked the host key
          sample: verified
    ssh_not_ready:
      description: Why O(ssh) is null, else null.
      type: str
      returned: always
    created_at:
      description: Creation time.
      type: str
      returned: always
    global_networking:
      description: Whether the pod has a global networking address (O(global_networking)).
      type: bool
      returned: always
      version_added: 0.2.0
    global_ip:
      description: The pod's global networking address, reachable from the account's other globally networked pods.
      type: str
      returned: when the pod has one
      version_added: 0.2.0
    internal_dns:
      description: The pod's name on the global network, C(<pod id>.runpod.internal).
      type: str
      returned: when the pod has one
      version_added: 0.2.0
    lease:
      description:
        - The pod's lease (O(stop_after), O(terminate_after), O(idle_stop_after)), read from its environment; null
          for a pod without one, which no enforcer ever touches.
        - C(stop_after), C(terminate_after), C(idle_stop_after) (seconds) and C(idle_below) (percent), as set;
          C(action), what the lease does next (C(stop), then C(terminate); null when nothing more is due) at
          C(deadline) (UTC); C(expired) (the deadline passed) and C(seconds_left); C(cost_so_far) (C(cost_per_hr)
          times the hours since creation) and C(cost_to_deadline) (times the hours left), in USD at today's rate.
      type: dict
      returned: always
      version_added: 0.3.0
      sample: {stop_after: 28800, terminate_after: 86400, idle_stop_after: null, idle_below: null, action: stop,
               deadline: "2026-01-01T08:00:00Z", expired: false, seconds_left: 3600, cost_so_far: 4.83,
               cost_to_deadline: 0.69}
    utilization:
      description:
        - What RunPod reports of a running pod, in percent - C(gpus) (one C({util, memory_util}) per GPU), C(cpu)
          and C(memory); null when the pod reports no runtime (not running).
      type: dict
      returned: always
      version_added: 0.3.0
      sample: {gpus: [{util: 87, memory_util: 45}], cpu: 12, memory: 30}
pods:
  description:
    - With O(count), one item per pod in index order (C({name}-1) first), each in the shape of RV(pod) and as
      last read (after a wait, as the wait last read it). Null for a pod deleted, or one that would be created
      in check mode.
  returned: with O(count)
  type: list
  elements: dict
failures:
  description: With O(count), each pod that failed, C({name, msg, code}), in index order.
  returned: with O(count), when some pods failed
  type: list
  elements: dict
  sample: [{name: worker-3, msg: "creating pod 'worker-3' failed: no capacity (bad_request)", code: bad_request}]
not_ready:
  description:
    - With O(count), on a failed wait, each pod that was not ready, C({id, name, state, logs}); C(logs) has the
      shape of RV(logs) (the pod's newest 20 lines of each source), read only for the pods whose logs explain
      the failure (the pods that stopped or vanished; on a timeout or an interrupt the first 4 pods not ready);
      the others say why in C(unavailable).
  returned: with O(count), when the wait failed
  type: list
  elements: dict
logs:
  description:
    - After a failed wait of one pod (timeout, fatal error or interrupt), RunPod's newest 20 lines of each log
      source of the pod - C(container) (what the container printed) and C(system) (the host's lifecycle lines -
      pulling, extracting, starting), each a list of C({ts, line}), newest last - and C(unavailable), why they
      could not be read (null when they were). The failure message quotes the newest container line.
    - Lines are data, shown as RunPod sent them with the task's secrets masked (C(********)) and control
      characters escaped; reading them never changes the failure or its code. See
      R(the logs guide,ansible_collections.runpod.cloud.docsite.guide_logs).
  returned: when the wait of one pod failed
  type: dict
  sample:
    container: [{ts: "2026-07-29T21:53:02Z", line: "RuntimeError: CUDA error: no kernel image is available"}]
    system: [{ts: "2026-07-29T21:52:40Z", line: "start container"}]
    unavailable: null
  version_added: 0.2.0
actions:
  description:
    - What the task did, in order, or would do in check mode. Items are C(create), C(adopt) (a pod found by name
      after a create that answered with a server error or an unreadable success), C(update), C(start), C(stop),
      C(restart), C(delete).
    - With O(count), each item names its pod, for example C(create worker-2).
  returned: always
  type: list
  elements: str
  sample: [create]
placement:
  description:
    - Where the create went and what it tried, on success and on failure, when the task sent a create.
  returned: when the task sent a create
  type: dict
  contains:
    gpu_type_id:
      description: The GPU type (or CPU flavor) the pod was created on; null when no candidate was placed.
      type: str
      returned: always
    price_per_hr:
      description:
        - The catalog's list price of the chosen candidate in USD per hour (per GPU for the cloud tier, times
          O(gpu_count)); null when no candidate was placed or the catalog quoted none. The billed rate is the
          pod's C(cost_per_hr).
      type: float
      returned: always
    data_center_id:
      description: The data center the create was pinned to (one of O(data_center_ids)), else null.
      type: str
      returned: always
    attempts:
      description:
        - One item per create sent, in order, C({gpu_type_id, data_center_id, price_per_hr, status, detail});
          C(status) is the HTTP status (201 for the created pod) or an error code when no answer came.
      type: list
      elements: dict
      returned: always
    catalog:
      description:
        - C(read) when the catalog's stock ordered the candidates, C(not read) (CPU pods), or
          C(failed) followed by the reason when the read failed (the candidates of O(gpu_type_ids) keep the
          given order; with O(gpu_requirements) or O(max_price_per_hr) the task fails, C(catalog_unavailable)).
      type: str
      returned: always
    dropped:
      description:
        - Candidates never sent, C({gpu_type_id, data_center_id, price_per_hr, reason}) - C(reason) is C(stock)
          (the catalog showed no stock) or C(price) (listed above O(max_price_per_hr)).
      type: list
      elements: dict
      returned: always
  sample:
    gpu_type_id: NVIDIA A40
    data_center_id: null
    price_per_hr: 0.4
    catalog: read
    dropped: [{gpu_type_id: NVIDIA GeForce RTX 4090, data_center_id: null, price_per_hr: 0.69, reason: stock}]
    attempts:
      - {gpu_type_id: NVIDIA L40S, data_center_id: null, price_per_hr: 0.86, status: 400, detail: "no instances"}
      - {gpu_type_id: NVIDIA A40, data_center_id: null, price_per_hr: 0.4, status: 201, detail: created}
updated_fields:
  description: Fields changed (or that would be changed) by the update call.
  returned: when an update was made or would be made
  type: list
  elements: str
  sample: [image, env]
wait:
  description:
    - How the wait went, with the same keys on success and on failure - C(elapsed) (whole seconds), C(polls)
      (API reads), C(probes) (SSH probe rounds between reads), C(history) (the state transitions
      C({elapsed, state})) and C(last_state) (the state the wait ended on). A successful wait also returns
      C(ready_detail), the same text as C(last_state).
    - With O(count), the one batch wait over all pods, with C(last_states) (pod id to its last state) as well.
  returned: when the module waited
  type: dict
  sample:
    elapsed: 94
    polls: 19
    probes: 12
    last_state: ssh reachable at 203.0.113.7:40123
    ready_detail: ssh reachable at 203.0.113.7:40123
    history:
      - {elapsed: 0.0, state: pod status provisioning}
      - {elapsed: 30.1, state: ssh port not allocated yet}
      - {elapsed: 94.2, state: ssh reachable at 203.0.113.7:40123}
watchdog:
  description:
    - After O(wait_for=login), the pod's lease watchdog armed over a login like the wait's. C(armed) is false for a
      pod without a lease (nothing to enforce, C(detail) says so) and when arming failed (a warning says why).
  returned: when a wait for V(login) succeeded on the controller (not with C(delegate_to) another host)
  type: dict
  version_added: 0.3.0
  sample: {armed: true, detail: "runpod.cloud watchdog: armed on pod abc123xyz (pid 4711)"}
  contains:
    armed:
      description: Whether a watchdog now runs in the pod (a second arming replaces the first).
      type: bool
    detail:
      description: The last line the arming printed, or why it could not run.
      type: str
code:
  description:
    - Machine-readable failure code, for example C(wait_timeout), C(wait_interrupted), C(interrupted) (a signal
      reached the module outside a wait), C(not_found), C(conflict), C(unauthorized), C(bad_request),
      C(ambiguous), C(server_error), C(no_capacity), C(price_cap_exceeded), C(catalog_unavailable), C(no_match),
      C(rate_limited) (RunPod's quota cannot reset within the task's budget, see O(create_timeout) and RV(quota)).
    - With O(count), the code the failed pods share, else C(partial_failure).
  returned: on failure
  type: str
  sample: wait_timeout
quota:
  description:
    - With RV(code=rate_limited), the quota window that cannot reset within the task's budget.
  returned: on failure with code rate_limited
  type: dict
  contains:
    window:
      description: The window's name as RunPod gives it (C(minute), C(hour), C(day)).
      type: str
    remaining:
      description: Requests left in the window as RunPod last answered.
      type: int
    quota:
      description: The window's quota (C(q) of C(RateLimit-Policy)), when RunPod gave it.
      type: int
    resets_in:
      description: Seconds until the window resets.
      type: float
    resets_at:
      description: When the window resets (UTC, ISO 8601).
      type: str
  sample: {window: hour, remaining: 0, quota: 3000, resets_in: 1812.0, resets_at: "2026-12-01T10:30:12+00:00"}
ids:
  description:
    - With C(code=ambiguous), the ids of every live pod with the name (after a create, this task's pod and the ones
      other tasks created at the same moment; nothing is deleted). With C(code=conflict) on a rename, the pods that
      already have the wanted name.
    - With O(count), always, the ids of the fleet's pods that exist after the task (created or found), in index
      order; on a failure, every pod there is, kept (the ids of a pod's own C(ambiguous) failure are in its
      RV(failures) message).
  returned: on failure with code ambiguous or conflict; always with O(count)
  type: list
  elements: str
  sample: [abc123xyz, def456uvw]
id:
  description: Id of the pod the failure concerns, when there is one (always after a create or start).
  returned: on failure, when a pod is involved
  type: str
  sample: abc123xyz
diff:
  description:
    - Before and after views of the pod's managed fields.
    - With O(count), C(before) and C(after) map each changed pod's name to its views.
  returned: with C(--diff), when something changed
  type: dict
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._api.pod_inputs import PodInput
from ansible_collections.runpod.cloud.plugins.module_utils._backend.connection import Gpus
from ansible_collections.runpod.cloud.plugins.module_utils._backend.pods import Pods
from ansible_collections.runpod.cloud.plugins.module_utils._backend.secrets import Secrets
from ansible_collections.runpod.cloud.plugins.module_utils._backend.shared import SshKeys
from ansible_collections.runpod.cloud.plugins.module_utils._backend.templates import Templates
from ansible_collections.runpod.cloud.plugins.module_utils._module import specs as _specs
from ansible_collections.runpod.cloud.plugins.module_utils._module.base import run_module
from ansible_collections.runpod.cloud.plugins.module_utils._module.pod_waiter import PodWaiter
from ansible_collections.runpod.cloud.plugins.module_utils._module.resource import ResourceModule
from ansible_collections.runpod.cloud.plugins.module_utils._module.specs import (
    AUTH_ARGUMENT_SPEC,
    CONTAINER_ARGUMENT_SPEC,
    FLEET_ARGUMENT_SPEC,
    GPU_CHOICE_ARGUMENT_SPEC,
    LOOKUP_ARGUMENT_SPEC,
    POD_CONTAINER_ARGUMENT_SPEC,
    POD_WAIT_ARGUMENT_SPEC,
    REGISTRY_ARGUMENT_SPEC,
    WAIT_ARGUMENT_SPEC,
    argument_spec,
)
from ansible_collections.runpod.cloud.plugins.module_utils._rules import pod_rules as _pods
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import describe_pod

ARGUMENT_SPEC = argument_spec(
    AUTH_ARGUMENT_SPEC,
    WAIT_ARGUMENT_SPEC,
    POD_WAIT_ARGUMENT_SPEC,
    GPU_CHOICE_ARGUMENT_SPEC,
    FLEET_ARGUMENT_SPEC,
    _specs.CREATE_TIMEOUT_SPEC,
    LOOKUP_ARGUMENT_SPEC,
    CONTAINER_ARGUMENT_SPEC,
    REGISTRY_ARGUMENT_SPEC,
    POD_CONTAINER_ARGUMENT_SPEC,
    state=dict(type="str", choices=["present", "running", "stopped", "restarted", "absent"], default="present"),
    template_id=dict(type="str"),
    compute_type=dict(type="str", choices=["GPU", "CPU"], default="GPU"),
    gpu_type_ids=dict(type="list", elements="str"),
    gpu_count=dict(type="int"),
    global_networking=dict(type="bool"),
    cpu_flavor_ids=dict(type="list", elements="str"),
    vcpu_count=dict(type="int"),
    cloud_type=dict(type="str", choices=["SECURE", "COMMUNITY"], default="SECURE"),
    allowed_cuda_versions=dict(type="list", elements="str"),
    min_cuda_version=dict(type="str"),
    own_sshd=dict(type="bool", default=False),
    # The pod's own wait_for has login (pod_info's batch waits do not): the whole entry, docs and spec.
    wait_for=dict(type="str", choices=["ssh", "running", "login"], default="ssh"),
    host_key_checking=dict(type="str", choices=["strict", "log", "off"], default="log"),
    known_hosts_dir=dict(type="path", default="~/.cache/runpod.cloud/known_hosts"),
    ssh_private_key_file=dict(type="path"),
    stop_after=dict(type="raw"),
    terminate_after=dict(type="raw"),
    idle_stop_after=dict(type="raw"),
    idle_below=dict(type="int"),
)

MUTUALLY_EXCLUSIVE = [("image", "template_id")]
REQUIRED_ONE_OF = [("name", "id")]
POD_WAIT_STATES = ("present", "running", "restarted")


class PodModule(ResourceModule):
    """The pod skeleton; its rules live in ``_rules.pod_rules``, its wait and its kept-pod messages in ``PodWaiter``
    (``self.waiter``, which the action plugin builds too)."""

    uses = (Gpus, Pods, Secrets, SshKeys, Templates)

    resource_kind = "pod"
    waiter_class = PodWaiter
    track_actions = True
    keep_deleted = False
    input_model = PodInput
    recheck_name_after_create = True
    adopt_after_failed_create = True
    planned_changes: dict = {}

    def __init__(self, module, *, shared_read=None, **seat):
        # A fleet member's create reads the catalog through the fleet's one read (``fleet.SharedCatalog``).
        self.shared_read = shared_read
        super().__init__(module, **seat)

    # --- checks made before the create (the input rules are PodInput's) ---------------------------------
    def _template_env(self, template_id):
        try:
            return self.backend.templates.get(template_id).env
        except RunPodError:
            return None  # the create reports a template it cannot use

    # --- hooks: lookup, description, diff -------------------------------------------------------------
    def read(self, resource_id):
        pod = self.backend.pods.get(resource_id)
        return None if pod.status.upper() == "TERMINATED" else pod

    def find_by_name(self, name):
        return self.backend.pods.find(name)

    def describe(self, resource):
        return describe_pod(resource)

    def should_wait(self):
        return super().should_wait() and self.params["state"] in POD_WAIT_STATES

    def diff_view(self, resource):
        return resource.model_dump(include=_pods.DIFF_FIELDS)

    def changes(self, current):
        changes = _pods.pod_changes(self.params, current)
        restarting = sorted(set(changes) - {"name"})
        if restarting and not _pods.is_stopped(current):  # RunPod applies an update by restarting the container
            self.warn(f"updating {self.label(current)} ({', '.join(restarting)}) "
                      f"{'would restart' if self.module.check_mode else 'restarts'} its container: its processes "
                      "start again and files outside its volume are lost")
        return changes

    # --- hooks: create ---------------------------------------------------------------------------------
    def check_found(self, current):
        state = self.params["state"]
        if current is None and state in ("stopped", "restarted"):
            key = f"id {self.params['id']}" if self.params["id"] else f"name {self.params['name']!r}"
            self.fail(
                f"no pod with {key} exists, so it cannot be {state}; state: {state} never creates a pod. "
                "Use state: present or running to create it.",
                code="not_found",
                resource_id=self.params["id"],
            )

    def refuse_sshd_without_key(self):
        """Refuse, before a create, a wait for an sshd that cannot start: RunPod images need a PUBLIC_KEY. A fleet
        asks once, before its members (created without a wait of their own) are."""
        problem = _pods.sshd_key_problem(self.params, self._template_env, lambda: bool(self.backend.sshkeys.list()))
        if problem:
            self.fail(problem, code="bad_request")

    def build_spec(self):
        p = self.params
        self.refuse_sshd_without_key()
        spec = _pods.pod_spec(p)
        for warning in _pods.create_warnings(p):
            self.warn(warning)
        return spec

    def plan(self, spec):
        # A pod planned in check mode has no id nor status, so the result stays null (documented).
        return None, dict(spec.model_dump(include=_pods.PLANNED_FIELDS), state="present")

    def create(self, spec):
        try:
            pod = self.create_placed(lambda: self.backend.pods.create(spec, shared_read=self.shared_read))
        except RunPodError as error:
            # A success answer that cannot be read (not JSON, no pod in it) still created a pod that bills.
            if error.code == "bad_response":
                error.maybe_created = True
            raise
        warning = _pods.cost_warning(spec.max_price_per_hr, pod.cost_per_hr, f"pod {pod.id} ({pod.name!r})")
        if warning:
            self.warn(warning)
        return pod

    # --- hooks: existing pods --------------------------------------------------------------------------
    def converge(self, current):
        """Update the mutable fields of an existing pod, then bring it to ``state``; one diff for both."""
        state = self.params["state"]
        before = self.diff_view(current)
        warning = _pods.immutable_warning(self.params, current)
        if warning:
            self.warn(warning)
        pod = self.transition(self.update_resource(current), state)
        if self.result["changed"]:
            if not self.module.check_mode:
                self.set_diff(before, self.diff_view(self.last_seen))
                return pod
            after = dict(before, **self.planned_changes)
            if self.result["actions"][-1] in ("start", "stop", "restart"):
                after["status"] = {"running": "RUNNING", "restarted": "RUNNING", "stopped": "EXITED"}.get(state, "")
            self.set_diff(before, after)
        return pod

    def planned_update(self, current, changes):
        # The result stays the pod as last read; the diff shows the planned fields.
        self.planned_changes = changes
        problem = _pods.lease_restart_problem(self.params, current, changes)
        if problem:
            self.warn(problem.replace("Nothing was changed.", "Applying this task would fail."))
        return current

    def update(self, current, changes):
        problem = _pods.lease_restart_problem(self.params, current, changes)
        if problem:
            raise ValueError(problem)
        if "volume_gb" in changes or "volume_mount_path" in changes:
            changes = _pods.whole_mount(current, changes)
        return self.backend.pods.update(current.id, changes)

    def transition(self, pod, state):
        if state == "running" and _pods.is_stopped(pod):
            return self._act(pod, "start")
        if state == "stopped" and not _pods.is_stopped(pod):
            return self._act(pod, "stop")
        if state == "restarted":
            if _pods.is_stopped(pod):
                return self._act(pod, "start")
            if _pods.is_booting(pod):
                self.warn(
                    f"pod {pod.id} is still booting (status {pod.status.lower()}), which already gives it a fresh "
                    "container; it was not restarted."
                )
                return pod
            return self._act(pod, "restart")
        return pod

    def _act(self, pod, action):
        """A lifecycle action (start/stop/restart); returns the pod as the API answered or as re-read."""
        changed_before = self.result["changed"]
        self.action(action)
        if self.module.check_mode:
            return pod
        try:
            after = self.backend.pods.action(pod.id, action)
        except RunPodError as error:
            self.fail_api(error, f"{action} of pod {pod.id} failed", resource_id=pod.id, changed=changed_before)
        if action in ("start", "restart"):
            self.touched_id = pod.id
        if after is None:
            after = self.backend.pods.get(pod.id)
        return self.seen(after)

    def delete(self, current):
        self.backend.pods.delete(current.id)

    def run(self):  # with count, a fleet (docs/pods.md, "Fleets")
        _specs.start_create_budget(self)  # docs/pods.md, "Fleets and RunPod's quotas"
        if self.params["count"] is None:
            return super().run()
        from ansible_collections.runpod.cloud.plugins.module_utils._module import fleet as _fleet  # count: N only

        self.require_secrets()  # once for the fleet (its members' params are merged already)
        return _fleet.run_fleet(self)


def main():
    module = AnsibleModule(
        argument_spec=ARGUMENT_SPEC,
        mutually_exclusive=MUTUALLY_EXCLUSIVE,
        required_one_of=REQUIRED_ONE_OF,
        supports_check_mode=True,
    )
    run_module(PodModule, module)


if __name__ == "__main__":
    main()

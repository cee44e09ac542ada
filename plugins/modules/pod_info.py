#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: pod_info
short_description: Read RunPod pods with their derived runtime status, and wait for many pods at once
version_added: 0.1.0
description:
  - Reads RunPod pods selected by O(id), O(name), O(ids), O(names), or all pods of the account, and returns
    each one with its derived runtime status, the reason for it, and its public SSH address (or why there is none).
  - Costs one list read for any number of pods, never one call per pod.
  - An id given in O(id) or O(ids) that the list does not show (REST v2 drops terminated pods from its list)
    is read once by id, so a terminated pod is still reported; an id the API does not know is returned in
    RV(missing).
  - With O(wait=true) it waits until B(every) selected pod is ready (see O(wait_for)), with one list read
    per O(wait_interval) for all of them and the SSH probes of all pods running concurrently between reads.
    This is how a playbook brings up many pods without waiting for them one after another, create them
    with M(runpod.cloud.pod) and O(wait=false) in a loop, then run one M(runpod.cloud.pod_info) wait.
  - "Runtime status vocabulary (RV(pods[].runtime_status)): V(running) (container up), V(initializing)
    (not up yet), V(stopped) (stopped, start it again), V(terminated) (gone for good), V(unknown) (a status
    the collection does not know; never treated as down)."
  - "Reason tokens (RV(pods[].runtime_status_reason)): V(provisioning), V(starting_container) and
    V(awaiting_container) (initializing); V(container_error) (stopped). REST v2 says nothing of why a pod
    stopped or was terminated, so those carry no reason. C(docs/runtime-status.md) in the collection explains
    each one and what to do about it."
extends_documentation_fragment:
  - runpod.cloud.common.INFO
  - runpod.cloud.wait
  - runpod.cloud.wait.POD
  - runpod.cloud.wait.HOST_KEYS
options:
  id:
    description:
      - Select the pod with this id.
      - Mutually exclusive with O(name), O(ids) and O(names). Without any of them every pod is selected.
    type: str
  name:
    description:
      - Select the pods named exactly this. RunPod names are not unique, so this can select several pods.
    type: str
  ids:
    description:
      - Select the pods with these ids.
    type: list
    elements: str
  names:
    description:
      - Select the pods with any of these names.
    type: list
    elements: str
  runtime_status:
    description:
      - Keep only the selected pods whose derived runtime status is one of these.
      - With O(wait=true) the filter applies before the wait, so it chooses which pods are waited for.
    type: list
    elements: str
    choices: [running, initializing, stopped, terminated, unknown]
  older_than:
    description:
      - Keep only the selected pods created longer ago than this duration (against the pod's C(createdAt)), for
        example V(12h), V(2d), V(90m) or a number of seconds. A pod whose creation time cannot be read is never
        kept (a reaper never deletes a pod it cannot age).
      - With O(name_prefix), the filters for a scheduled reaper; see the collection's C(docs/pods.md), section
        "Cleaning up forgotten pods".
    type: raw
    version_added: 0.2.0
  name_prefix:
    description:
      - Keep only the selected pods whose name starts with this text (case-sensitive). Must not be empty.
    type: str
    version_added: 0.2.0
  lease_expired:
    description:
      - Keep only the selected pods whose lease's deadline passed (V(true)), or only those with a lease that has
        not (V(false)); see RV(pods[].lease). A pod without a lease is never kept.
      - What the C(runpod.cloud.enforce_leases) playbook acts on; see the collection's C(docs/costs.md).
    type: bool
    version_added: 0.3.0
  idle:
    description:
      - Keep only the selected pods whose GPUs all read below their lease's C(idle_below) (else 5) percent
        utilization now (V(true)), or the others (V(false)). One reading, no history; a pod that reports no GPU
        utilization (stopped, CPU) is not idle.
    type: bool
    version_added: 0.3.0
  logs:
    description:
      - Return the newest O(logs) lines of each log source (C(container), C(system)) of every selected pod,
        in RV(pods[].logs). V(0) reads no logs.
      - The reads run concurrently, at most 8 at a time, and all of them end within a 5 s budget (RunPod's log
        stream stays open after its backfill, so each read stops once no line came for a second). A pod whose
        logs cannot be read (or that the budget did not reach) gets the reason in C(unavailable); the task
        does not fail for it.
      - Every value of the task's secrets (the api key) is masked (C(********)) in the lines; see
        R(the logs guide,ansible_collections.runpod.cloud.docsite.guide_logs) for what is and is not masked.
    type: int
    default: 0
    version_added: 0.2.0
  wait:
    description:
      - With this module, ready means ready for every selected pod at once (see O(wait_for)).
      - The wait fails fast, naming the pods, as soon as a selected pod is stopped or terminated (it could
        never become ready without user action), and on timeout names each pod that is not ready with its
        last state (also in RV(not_ready), each with the newest 20 lines of its logs when they explain the
        failure).
      - When the task runs on the controller, the wait runs in C(ansible-playbook) and prints a line for each
        state change of each pod, naming the pod and its id, and a running count each time a pod becomes
        ready and with every 15 s heartbeat (C(12/50 ready; waiting for worker-3, worker-7, worker-9 and 35
        more)). The result is the same as when the module waits by itself.
notes:
  - Supports check mode; it never changes anything. No wait happens in check mode.
seealso:
  - module: runpod.cloud.pod
  - plugin: runpod.cloud.runpod
    plugin_type: inventory
"""

EXAMPLES = r"""
- name: Read every pod of the account
  runpod.cloud.pod_info:
  register: all_pods

- name: Read one pod by id
  runpod.cloud.pod_info:
    id: "{{ pod_id }}"
  register: one_pod

- name: Show the SSH command of each running pod
  ansible.builtin.debug:
    msg: "{{ item.name }}: {{ item.ssh.command }}"
  loop: "{{ all_pods.pods }}"
  when: item.ssh is not none

- name: Create many pods without waiting for each
  runpod.cloud.pod:
    name: "worker-{{ item }}"
    image: runpod/pytorch:2.8.0-py3.11-cuda12.8.1-cudnn-devel-ubuntu22.04
    gpu_type_ids: ["NVIDIA GeForce RTX 4090"]
    wait: false
  loop: "{{ range(1, 9) | list }}"

- name: Then wait once until all eight answer on SSH
  runpod.cloud.pod_info:
    names: "{{ range(1, 9) | map('string') | map('regex_replace', '^', 'worker-') | list }}"
    wait: true
    wait_timeout: 20m
  register: workers

- name: Only pods that are not running
  runpod.cloud.pod_info:
    runtime_status: [initializing, stopped, unknown]
  register: not_running

- name: Pods whose lease ran out, and running pods whose GPUs idle right now
  runpod.cloud.pod_info:
    lease_expired: true
  register: expired
"""

RETURN = r"""
pods:
  description:
    - The selected pods, in the order the API listed them (newest first, every page of RunPod's list); a pod
      selected by O(ids) that the list does not show comes last.
    - After a wait, each pod as last read by the wait.
  returned: always
  type: list
  elements: dict
  contains:
    id:
      description: Pod id.
      type: str
      sample: 3kq9z1x8a7b6c5
    name:
      description: Pod name.
      type: str
      sample: trainer-1
    status:
      description: The API's lifecycle value (REST v2 C(status)).
      type: str
      sample: RUNNING
    runtime_status:
      description: Derived runtime status, one of V(running), V(initializing), V(stopped), V(terminated), V(unknown).
      type: str
      sample: running
    runtime_status_reason:
      description: Why the pod has that status (see the module description for the tokens); null when none applies.
      type: str
      sample: awaiting_container
    uptime_seconds:
      description: Container uptime; null unless RV(pods[].runtime_status) is V(running).
      type: int
      sample: 3600
    image:
      description: Container image.
      type: str
      sample: runpod/pytorch:2.8.0-py3.11-cuda12.8.1-cudnn-devel-ubuntu22.04
    gpu:
      description: GPU type and count (type null for CPU pods).
      type: dict
      sample: {type: NVIDIA GeForce RTX 4090, count: 1}
    cost_per_hr:
      description: Price in USD per hour (0 when stopped).
      type: float
      sample: 0.69
    data_center_id:
      description: Data center the pod runs in.
      type: str
      sample: US-TX-3
    ports:
      description: Declared ports.
      type: list
      elements: str
      sample: ["8888/http", "22/tcp"]
    ssh:
      description:
        - Public SSH address C({host, port, user, command}) when a public port is mapped to the pod's port 22
          and the pod is not stopped or terminated; null otherwise.
        - After a wait for V(ssh) that checked host keys (O(host_key_checking) not V(off)), also
          RV(pods[].ssh.host_keys), RV(pods[].ssh.host_key_fingerprints) and RV(pods[].ssh.host_key_check).
      type: dict
      sample: {host: 203.0.113.7, port: 10341, user: root, command: ssh root@203.0.113.7 -p 10341}
      contains:
        ssh_args:
          description:
            - The ssh options that trust only the host keys the wait checked, for C(ansible_ssh_common_args) or
              C(ssh), namely
              C(-o StrictHostKeyChecking=yes -o UserKnownHostsFile=<known_hosts_dir>/known_hosts_<pod id>), the file
              written on the controller from RV(pods[].ssh.host_keys) (O(known_hosts_dir)).
            - Null when no host key was checked (no wait, a wait for V(running), O(host_key_checking=off), or a
              task run with C(async)); then your own ssh settings and known_hosts decide.
          type: str
          returned: when RV(pods[].ssh) is not null
          version_added: 0.3.0
        command:
          description: The ssh command line to log in, with RV(pods[].ssh.ssh_args) when not null.
          type: str
          returned: when RV(pods[].ssh) is not null
        host_keys:
          description:
            - known_hosts lines for C([host]:port) of the verified keys, or of every presented key when pinned.
              RV(pods[].ssh.ssh_args) trusts them (the action plugin writes them to a known_hosts file).
          type: list
          elements: str
          returned: after a wait that checked the host key
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
      description: Why RV(pods[].ssh) is null, as a sentence with the remedy; null when RV(pods[].ssh) is set.
      type: str
      sample: "pod not ready: no container reported yet (image pull, container create or boot)"
    created_at:
      description: Creation time (RFC 3339).
      type: str
      sample: "2026-07-29T21:51:59Z"
    lease:
      description: The pod's lease, null without one; the shape of the C(lease) of M(runpod.cloud.pod)'s result.
      type: dict
      version_added: 0.3.0
      sample: {stop_after: 3600, terminate_after: null, idle_stop_after: null, idle_below: null, action: stop,
               deadline: "2026-07-29T22:51:59Z", expired: false, seconds_left: 1200, cost_so_far: 0.46,
               cost_to_deadline: 0.23}
    utilization:
      description:
        - C(gpus) (one C({util, memory_util}) per GPU), C(cpu) and C(memory) in percent, as RunPod reports them;
          null when the pod is not running.
      type: dict
      version_added: 0.3.0
      sample: {gpus: [{util: 0, memory_util: 1}], cpu: 2, memory: 10}
    logs:
      description:
        - With O(logs) above 0, the pod's newest log lines - C(container) (what the container printed) and
          C(system) (the host's lifecycle lines), each a list of C({ts, line}), newest last - and C(unavailable),
          why they could not be read (null when they were).
        - Lines are data, shown as RunPod sent them with secrets masked and control characters escaped.
      type: dict
      returned: when O(logs) is above 0
      sample:
        container: [{ts: "2026-07-29T21:53:02Z", line: "Model loaded."}]
        system: [{ts: "2026-07-29T21:52:40Z", line: "start container"}]
        unavailable: null
      version_added: 0.2.0
missing:
  description: Ids or names given in O(id), O(ids), O(name) or O(names) that matched no pod.
  returned: always
  type: list
  elements: str
  sample: []
wait:
  description:
    - How the wait went; only with O(wait=true) outside check mode. The same keys on success and on failure.
    - C(elapsed) whole seconds, C(polls) API list reads, C(probes) SSH probe rounds between reads,
      C(history) the state transitions C({elapsed, state}) of the whole batch, C(last_state) the batch's state
      the wait ended on, and C(last_states) (pod id to its last state) once a pod was seen.
    - A successful wait also returns C(ready_detail), the same text as C(last_state).
  returned: when waiting
  type: dict
  sample: {elapsed: 42, polls: 9, probes: 12, history: [{elapsed: 0.0, state: "0 of 2 pods ready; ..."}]}
not_ready:
  description:
    - On a failed wait, each pod that was not ready, C({id, name, state, logs}).
    - C(logs) holds the pod's newest 20 lines of each source, the shape of RV(pods[].logs), read only for the
      pods whose logs explain the failure (the pods that stopped or vanished; on a timeout or an interrupt the
      first 4 pods not ready); the others say why in C(unavailable). The failure message
      quotes the newest container line of the first three pods read.
  returned: failure while waiting
  type: list
  elements: dict
  sample:
    - id: 3kq9z1x8a7b6c5
      name: trainer-2
      state: "pod status starting"
      logs: {container: [], system: [{ts: "2026-07-29T21:52:40Z", line: "pulling image"}], unavailable: null}
code:
  description: Machine-readable failure code (V(wait_timeout), V(wait_interrupted), V(conflict), V(not_found), ...).
  returned: failure
  type: str
  sample: wait_timeout
"""

import time
from typing import Any

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._backend.connection import Gpus
from ansible_collections.runpod.cloud.plugins.module_utils._backend.pods import Pods
from ansible_collections.runpod.cloud.plugins.module_utils._module.base import RunPodModule, run_module
from ansible_collections.runpod.cloud.plugins.module_utils._module.specs import (
    AUTH_ARGUMENT_SPEC,
    HOST_KEY_ARGUMENT_SPEC,
    POD_WAIT_ARGUMENT_SPEC,
    WAIT_ARGUMENT_SPEC,
    argument_spec,
    info_lines,
)
from ansible_collections.runpod.cloud.plugins.module_utils._vocab import duration as _duration
from ansible_collections.runpod.cloud.plugins.module_utils._vocab import podstate as _podstate
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import describe_pod

ARGUMENT_SPEC = argument_spec(
    AUTH_ARGUMENT_SPEC,
    WAIT_ARGUMENT_SPEC,
    HOST_KEY_ARGUMENT_SPEC,
    POD_WAIT_ARGUMENT_SPEC,
    id=dict(type="str"),
    name=dict(type="str"),
    ids=dict(type="list", elements="str"),
    names=dict(type="list", elements="str"),
    runtime_status=dict(type="list", elements="str", choices=list(_podstate.STATUSES)),
    older_than=dict(type="raw"),
    name_prefix=dict(type="str"),
    logs=dict(type="int", default=0),
    lease_expired=dict(type="bool"),
    idle=dict(type="bool"),
)
MUTUALLY_EXCLUSIVE = [("id", "name", "ids", "names")]


# --- reaping: older_than and name_prefix ------------------------------------------------------------------------
def older_than_seconds(older_than: Any, name_prefix: str | None) -> float | None:
    """``older_than`` as seconds (None when not given); raises ValueError with the user-facing message."""
    if name_prefix is not None and not name_prefix:
        raise ValueError("name_prefix must not be empty (it would select every pod).")
    if older_than is None:
        return None
    try:
        return _duration.parse(older_than)
    except _duration.DurationError as error:
        raise ValueError(f"older_than: {error}") from None


def reap_select(pods: list, older_than: float | None, name_prefix: str | None, now: float) -> list:
    """The pods older than ``older_than`` seconds (by ``created_at``: one whose age cannot be read is not) whose names
    start with ``name_prefix``; a filter not given keeps every pod."""
    def kept(pod):
        created = _podstate.created_epoch(pod.created_at) if older_than is not None else None
        return ((not name_prefix or str(pod.name or "").startswith(name_prefix))
                and (older_than is None or (created is not None and now - created > older_than)))

    return [pod for pod in pods if kept(pod)]


class PodInfoModule(RunPodModule):
    """The selection and the run; the batch wait is ``batch.PodsWaiter``'s (``self.waiter``, which the action
    plugin builds too). A task that does not wait imports no wait code (the engine, the pollers)."""

    uses = (Gpus, Pods)

    result_key = "pods"
    resource_kind = "pod"

    def __init__(self, module):
        super().__init__(module)
        if self.waiting:  # imported here, before the clock starts: the wait's budget is the API's, not imports'
            from ansible_collections.runpod.cloud.plugins.module_utils._module.pod_waiter import PodsWaiter

            self.waiter = PodsWaiter(self)
        self.started = time.monotonic()
        self.first_read_elapsed = 0.0
        self.age_limit = None

    @property
    def waiting(self):
        return self.wait_settings is not None and self.wait_settings.wait

    # --- selection -----------------------------------------------------------------------------
    def _selectors(self):
        params = self.module.params
        ids = [params["id"]] if params["id"] else list(params["ids"] or [])
        names = [params["name"]] if params["name"] else list(params["names"] or [])
        if any(not str(value).strip() for value in ids + names):
            self.fail("pod ids and names must not be empty strings.", code="bad_request")
        try:
            self.age_limit = older_than_seconds(params["older_than"], params["name_prefix"])
        except ValueError as error:
            self.fail(str(error), code="bad_request")
        return list(dict.fromkeys(ids)), list(dict.fromkeys(names))

    def _read(self, ids, names):
        """One list read."""
        if not (ids or names):
            return self.backend.pods.list()
        wanted_ids, wanted_names = set(ids), set(names)
        return self.backend.pods.list(select=lambda pod_id, name: pod_id in wanted_ids or name in wanted_names)

    def _first_read(self, ids, names, waiting):
        if not waiting:
            try:
                return self._read(ids, names)
            except RunPodError as error:
                self.fail_api(error, "Could not list pods")
        # A task that waits treats its first read like every later one: 5xx, 429 and network errors are
        # ridden out (within wait_timeout), 401/403/400 still fail at once.
        from ansible_collections.runpod.cloud.plugins.module_utils._engine.poll import (  # loaded by batch
            FunctionPoller,
            PollResult,
        )

        outcome = self.waiter.until(
            FunctionPoller(lambda: PollResult(True, "pods listed", value=self._read(ids, names))),
            label="the pod list",
            resource_id=None,
            describe_last=list,
            explain_failure=lambda error: (f"{error}; nothing was created or deleted.", {}),
        )
        self.first_read_elapsed = time.monotonic() - self.started
        return outcome.value

    def _select(self, listed, ids, names):
        if not ids and not names:
            return listed, []
        selected = [pod for pod in listed if pod.id in ids or pod.name in names]
        found_ids = {pod.id for pod in selected}
        found_names = {pod.name for pod in selected}
        missing = []
        for pod_id in ids:
            if pod_id in found_ids:
                continue
            pod = self._read_unlisted(pod_id)
            if pod is None:
                missing.append(pod_id)
            else:
                selected.append(pod)
        missing.extend(name for name in names if name not in found_names)
        return selected, missing

    def _read_unlisted(self, pod_id):
        """An explicitly requested id the list does not show (v2 drops terminated pods): one read by id."""
        try:
            return self.backend.pods.get(pod_id)
        except RunPodError as error:
            if error.code == "not_found":
                return None
            self.fail_api(error, f"Could not read pod {pod_id}", resource_id=pod_id)

    # --- run -----------------------------------------------------------------------------------
    def run(self):
        logs = info_lines(self)
        ids, names = self._selectors()
        pods, missing = self._select(self._first_read(ids, names, self.waiting), ids, names)
        wanted = self.module.params["runtime_status"]
        if wanted:
            pods = [pod for pod in pods if _podstate.derive(pod)[0] in wanted]
        pods = reap_select(pods, self.age_limit, self.module.params["name_prefix"], time.time())
        described = [(pod, describe_pod(pod)) for pod in pods]
        tests = {"lease_expired": lambda d: bool(d["lease"]) and d["lease"]["expired"],  # a pod without one: neither
                 # idle now: one reading starts an idle stretch (idle_since not None)
                 "idle": lambda d: _podstate.idle_due(d["lease"], d["utilization"], None, 0)[1] is not None}
        for option, test in tests.items():
            if self.module.params[option] is not None:
                described = [(pod, d) for pod, d in described if (option == "idle" or d["lease"])
                             and test(d) == self.module.params[option]]
        pods = [pod for pod, _d in described]
        self.result["pods"] = [d for _pod, d in described]
        self.result["missing"] = missing
        if self.waiting:
            self._wait_all(pods, ids, missing)
        if logs:  # ``logs: N``, after the wait (a handoff exited before it); the log readers load only then
            from ansible_collections.runpod.cloud.plugins.module_utils._module.log_report import add_pod_logs

            add_pod_logs(self, self.result["pods"])
        self.exit()

    # --- batch wait ----------------------------------------------------------------------------
    def _wait_all(self, pods, ids, missing):
        missing_names = [entry for entry in missing if entry not in ids]
        if missing_names:
            self.fail(
                f"No pod is named {', '.join(missing_names)}, so there is nothing to wait for; check the names with "
                "runpod.cloud.pod_info.",
                code="not_found",
            )
        # Ids not listed yet (a pod created a moment ago) are waited for too; the poller gives up on them
        # after 12 reads in which they never appear.
        pod_ids = [pod.id for pod in pods] + [pod_id for pod_id in missing if pod_id in ids]
        if not pod_ids:
            from ansible_collections.runpod.cloud.plugins.module_utils._engine.outcome import WaitOutcome

            self.result["wait"] = WaitOutcome.nothing_to_wait_for().as_dict()
            return
        names = {pod.id: pod.name for pod in pods}
        # The first read's retries came out of the same budget.
        timeout = max(self.wait_settings.timeout - self.first_read_elapsed, 0.001)
        # On the controller, the action plugin waits; its first poll is this selection read, as here.
        first_read = [pod.model_dump(mode="json") for pod in pods]
        self.hand_off(pod_ids=pod_ids, names=names, timeout=timeout, first_read=first_read)
        self.waiter.wait_pods(pod_ids, names, timeout, first_read=list(pods))


def main():
    module = AnsibleModule(argument_spec=ARGUMENT_SPEC, mutually_exclusive=MUTUALLY_EXCLUSIVE, supports_check_mode=True)
    run_module(PodInfoModule, module)


if __name__ == "__main__":
    main()

# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The waits of the waiting modules, run by the module itself or, on the controller, by its action plugin.

A waiting module subclasses its ``*Wait`` class here, so the module and the action plugin run one
``wait_for``: the results cannot drift apart. ``resume_wait`` is the controller's side of the handoff
(docs/dev/architecture.md, "Waits on the controller").
"""

from __future__ import annotations

from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._api.models import PodView
from ansible_collections.runpod.cloud.plugins.module_utils._engine import outcome as _outcome
from ansible_collections.runpod.cloud.plugins.module_utils._engine import podstate as _podstate
from ansible_collections.runpod.cloud.plugins.module_utils._engine.describe import (
    describe_cluster,
    describe_endpoint,
    describe_members,
    describe_pod,
    describe_release,
)
from ansible_collections.runpod.cloud.plugins.module_utils._engine.pollers import (
    BatchLines,
    BatchPodPoller,
    ClusterPoller,
    PodPoller,
)
from ansible_collections.runpod.cloud.plugins.module_utils._engine.endpoint_poller import EndpointPoller
from ansible_collections.runpod.cloud.plugins.module_utils._module.base import HANDOFF_KEY, ResourceModule, RunPodModule

POD_WAIT_STATES = ("present", "running", "restarted")


def with_proven_ssh(described, proven):
    """A pod's description after a wait: the SSH address the wait proved, when the last read had none yet."""
    if described is not None and described["ssh"] is None and proven and not _podstate.known_down(
        described["runtime_status"]
    ):
        described["ssh"] = proven
        described["ssh_not_ready"] = None
    return described


class PodWait(ResourceModule):
    """What ``runpod.cloud.pod`` needs to wait: its messages, its description and the wait itself."""

    resource_kind = "pod"
    track_actions = True
    keep_deleted = False
    controller_wait = True

    def resume(self, handoff):
        if "members" in handoff:  # a fleet's one batch wait (``count``)
            return wait_fleet(self, handoff["members"])
        return super().resume(handoff)

    def resource_remedy(self, resource_id):
        return (
            f"pod {resource_id} was kept and bills by the second while it runs: inspect it with "
            f"{self.info_hint(resource_id)}, or delete it with {self.delete_hint(resource_id)}"
        )

    def last_known_state(self):
        return self.result["pod"]["runtime_status"] if self.result.get("pod") else "unknown"

    def describe(self, resource):
        return describe_pod(resource)

    def should_wait(self):
        return super().should_wait() and self.params["state"] in POD_WAIT_STATES

    def wait_for(self, resource):
        pod_id = resource.id
        before = self.result.get("pod")  # the pod as last read before the wait (what ``seen`` described)
        wait_for = self.wait_options.wait_for
        poller = PodPoller(self.backend, pod_id, wait_for=wait_for)
        outcome = self.wait_until(
            poller,
            label=f"{wait_for} on pod {pod_id}",
            resource_id=pod_id,
            describe_last=lambda: self.describe(poller.last_pod) if poller.last_pod is not None else before,
        )
        # No re-read after the wait: the list read the wait ended on already carries the whole pod, and one
        # less API call is one less way for a ready pod to end in a failure.
        if poller.last_pod is not None:
            self.seen(poller.last_pod)
        with_proven_ssh(self.result["pod"], (outcome.value or {}).get("ssh"))
        self.result["wait"] = outcome.as_dict()


class EndpointWait(ResourceModule):
    """What ``runpod.cloud.endpoint`` needs to wait: its remedy, its description and the wait itself.

    The wait starts from the endpoint as the task last described it (``result["endpoint"]``, which the handoff
    carries), never from a fresh read: both paths describe the same endpoint, with the wait's health counters.
    """

    resource_kind = "endpoint"
    controller_wait = True

    def resource_remedy(self, resource_id):
        return (
            f"endpoint {resource_id} was kept (nothing is deleted): inspect it with {self.info_hint(resource_id)}, "
            f"or delete it with {self.delete_hint(resource_id)} if you no longer want it (an endpoint with no "
            f"running worker is not billing, but it will start one on the first request)"
        )

    def describe(self, resource, health=None):
        return describe_endpoint(resource, self.backend.serverless_url, health)

    def wait_for(self, resource):
        endpoint_id = resource.id
        before = self.result["endpoint"]  # the endpoint as last read before the wait (what ``seen`` described)
        if not before["workers_min"]:
            self.module.warn(
                f"endpoint {endpoint_id} has workers_min 0, so RunPod keeps no worker running and none is "
                f"guaranteed to start before a request arrives; waiting anyway (set workers_min to 1 or more to "
                f"guarantee a worker)"
            )
        wait_for = self.params["wait_for"]
        poller = EndpointPoller(self.backend, endpoint_id, wait_for=wait_for)
        what = "a ready worker" if wait_for == "ready" else "a finished rollout (no stale worker left)"
        outcome = self.wait_until(
            poller,
            label=f"{what} on endpoint {endpoint_id}",
            resource_id=endpoint_id,
            describe_last=lambda: self.describe_waited(before, poller, None),
        )
        value = outcome.value or {}
        self.describe_waited(before, poller, value.get("health"))
        self.result["ready_signal"] = value.get("ready_signal")
        self.result["ready_worker_id"] = value.get("worker_id")
        self.result["wait"] = outcome.as_dict()

    def describe_waited(self, before, poller, health):
        """The endpoint as last seen by the wait, with its release and rollout (also on a failed wait)."""
        release = None
        if poller.last_version is not None and getattr(self.backend, "endpoint_release", None) is not None:
            try:
                release = self.backend.endpoint_release(before["id"])
            except RunPodError:
                release = {"version": poller.last_version, "rollout": poller.last_rollout}
        self.result["release"], self.result["rollout"] = describe_release(release)
        self.result["endpoint"] = self.describe(before, health or poller.last_health)
        return self.result["endpoint"]


class ClusterWait(ResourceModule):
    """What ``runpod.cloud.cluster`` needs to wait: its members, its description and the wait on every node.

    The wait starts from the cluster and its members as the task last described them (``result["cluster"]`` and
    ``result["pods"]``, which the handoff carries); the member views the module read itself (``members``) are
    described at the start, so a wait that never lists a member ends with the same ``pods`` on both paths.
    """

    resource_kind = "cluster"
    track_actions = True
    keep_deleted = False
    controller_wait = True

    def __init__(self, module):
        self.members = None  # the nodes as last read (PodViews), for the ``pods`` result
        self.proven = {}  # node id -> SSH address the wait proved reachable
        super().__init__(module)
        self.result["pods"] = []

    def describe(self, resource):
        return describe_cluster(resource)

    def last_known_state(self):
        counts = (self.result.get("cluster") or {}).get("pods_by_status") or {}
        return ", ".join(f"{count} {status.lower()}" for status, count in counts.items()) or "unknown"

    def read_members(self, cluster):
        self.members = self.backend.list_cluster_pods(cluster.id)
        return self.members

    def exit(self, **extra):
        # A handoff exits right before the wait, which lists the members itself: no read here.
        if HANDOFF_KEY not in extra and self.params["state"] == "present" and self.last_seen is not None \
                and self.members is None and not self.module.check_mode:
            self.read_members(self.last_seen)
        self.result["pods"] = describe_members(self.members or [], self.proven)
        super().exit(**extra)

    def wait_for(self, resource):
        cluster_id = resource.id
        before = self.result["cluster"]  # the cluster as last read before the wait (what ``seen`` described)
        if self.members is not None:  # read by the module (converge); on the controller the handoff's ``pods``
            self.result["pods"] = describe_members(self.members, self.proven)
        poller = ClusterPoller(self.backend, cluster_id, before["pod_count"] or self.params["pod_count"])

        def last_seen():
            if poller.last_pods:
                self.members = list(poller.last_pods.values())
                proven = {pod_id: entry.get("ssh") for pod_id, entry in poller.done.items()}
                self.result["pods"] = describe_members(self.members, proven)
            return before

        def explain_failure(error):
            waiting = [pod_id for pod_id in poller.pod_ids if pod_id not in poller.done]
            not_ready = []
            for pod_id in waiting:
                pod = poller.last_pods.get(pod_id)
                not_ready.append({
                    "id": pod_id,
                    "name": pod.name if pod is not None else None,
                    "rank": pod.cluster_rank if pod is not None else None,
                    "role": pod.cluster_role if pod is not None else None,
                    "last_state": poller.states.get(pod_id),
                })
            listing = ", ".join(f"{entry['id']} ({entry['last_state']})" for entry in not_ready) or "none listed yet"
            return (
                f"{error}; nodes not ready: {listing}; cluster {cluster_id} was kept (nothing is deleted) and bills "
                f"while its nodes run: inspect it with runpod.cloud.cluster_info id={cluster_id}, or delete it with "
                f"runpod.cloud.cluster id={cluster_id} state=absent",
                {"not_ready": not_ready},
            )

        outcome = self.wait_until(
            poller,
            label=f"ssh on every node of cluster {cluster_id}",
            resource_id=cluster_id,
            describe_last=last_seen,
            explain_failure=explain_failure,
        )
        self.proven = {pod_id: entry.get("ssh") for pod_id, entry in (outcome.value or {}).items()}
        self.members = list(poller.last_pods.values())
        # The create answer predates placement: one read gives the data center, network and primary.
        try:
            self.seen(self.backend.get_cluster(cluster_id))
        except RunPodError as error:
            self.module.warn(f"every node of cluster {cluster_id} answers SSH, but re-reading the cluster for its "
                             f"network and primary failed: {error.message} ({error.code}); they may be null")
        self.result["wait"] = outcome.as_dict()


class _WaitEndedError(Exception):
    def __init__(self, result):
        super().__init__("wait ended")
        self.result = result


def _warning_text(warning: Any) -> Any:
    """The message of a module warning: text, a 2.19 warning event, or its JSON form."""
    if isinstance(warning, dict):
        return (warning.get("event") or {}).get("msg")
    event = getattr(warning, "event", None)
    return getattr(event, "msg", None) if event is not None else warning


class _ControllerModule:
    """The part of AnsibleModule a resumed wait uses; ``exit_json``/``fail_json`` end it with its result."""

    check_mode = False
    _diff = False

    def __init__(self, params: dict) -> None:
        self.params = params
        # None while the wait class is built: the module already gave those warnings (the connection options are
        # the same). Then a list: the wait's own warnings, added to the result as the module would add them.
        self.warnings: list[str] | None = None

    def warn(self, warning: str) -> None:
        if self.warnings is not None and warning not in self.warnings:
            self.warnings.append(warning)

    def _with_warnings(self, result: dict) -> dict:
        # As a module's own warnings: each message once per task, after the ones the module gave before the handoff.
        given = list(result.get("warnings") or [])
        known = {_warning_text(warning) for warning in given}
        added = [warning for warning in self.warnings or () if warning not in known]
        if added:
            result["warnings"] = [*given, *added]
        return result

    def exit_json(self, **result: Any) -> None:
        raise _WaitEndedError(self._with_warnings(result))

    def fail_json(self, msg: str, **result: Any) -> None:
        raise _WaitEndedError(self._with_warnings(dict(result, failed=True, msg=msg)))


def resume_wait(wait_class, module_result: dict, api_key: str, progress=None, on_transition=None) -> dict:
    """Run the wait the module handed off (``module_result[HANDOFF_KEY]``) here; return the task's result.

    The module did everything but the wait; this runs the same ``wait_for`` on its result, so the result is
    what the module would have returned had it waited itself.
    """
    result = dict(module_result)
    handoff = result.pop(HANDOFF_KEY)
    module = _ControllerModule(dict(handoff["params"], api_key=api_key))
    try:
        runner = wait_class(module)
        module.warnings = []
        runner.progress = progress
        runner.on_transition = on_transition
        runner.result = result
        try:
            runner.resume(handoff)
        except RunPodError as error:  # as run_module does: the structured failure, never a traceback
            runner.fail_unexpected(error)
        runner.exit()
    except _WaitEndedError as ended:
        return ended.result
    raise AssertionError("the resumed wait neither exited nor failed")  # pragma: no cover


# --- batch waits: a fleet (``runpod.cloud.pod`` with ``count``) and ``runpod.cloud.pod_info`` ----------------


def batch_wait(owner, poller, subject, **wait_args):
    """``owner.wait_until`` over a ``BatchPodPoller``; on the controller, each pod's own transitions are shown
    (``BatchLines``) and the engine prints the running count (the poller's ``summary``)."""
    shown = owner.on_transition
    if shown is not None:
        owner.on_transition = BatchLines(poller, shown, subject)
    try:
        return owner.wait_until(poller, resource_id=None, **wait_args)
    finally:
        owner.on_transition = shown


def wait_fleet(owner, members):
    """The fleet's one batch wait: ``members`` are ``{"name", "id"}`` in order, ``owner.result["pods"]`` the
    pods as the task left them; sets ``pods`` (each as last read) and ``wait``."""
    settings = owner.wait_settings
    pod_ids = list(owner.result["ids"])
    names = {member["id"]: member["name"] for member in members if member["id"]}
    before = list(owner.result["pods"])
    poller = BatchPodPoller(owner.backend, pod_ids, wait_for=settings.wait_for, names=names)
    what = "ssh" if settings.wait_for == "ssh" else "running status"
    base = owner.params["name"]

    def last_reads(final):
        pods = []
        for index, member in enumerate(members):
            pod, ready = before[index], final.get(member["id"])
            if ready is not None:
                pod = with_proven_ssh(describe_pod(ready["pod"]), ready.get("ssh"))
            elif member["id"] in poller.last_pods:
                pod = describe_pod(poller.last_pods[member["id"]])
            pods.append(pod)
        return pods

    def describe_last():
        owner.result["pods"] = last_reads({})

    outcome = batch_wait(
        owner,
        poller,
        f"fleet {base}",
        label=f"{what} on {len(pod_ids)} pod{'' if len(pod_ids) == 1 else 's'} of fleet {base!r}",
        describe_last=describe_last,
        explain_failure=lambda error: explain_batch_failure(error, poller, pod_ids, names),
    )
    owner.result["pods"] = last_reads(outcome.value or {})
    owner.result["wait"] = outcome.as_dict()


def explain_batch_failure(error, poller, pod_ids, names):
    """Name every pod that is not ready with its last state: ``(msg, {"not_ready": [...]})`` of a batch wait."""
    states = dict(error.last_states or poller.states)
    not_ready = []
    for pod_id in pod_ids:
        if pod_id in poller.done:
            continue
        pod = poller.last_pods.get(pod_id)
        name = (pod.name if pod is not None else None) or names.get(pod_id) or ""
        not_ready.append({"id": pod_id, "name": name, "state": states.get(pod_id, error.last_state)})
    listing = "; ".join(f"{entry['id']} ({entry['name'] or 'no name'}): {entry['state']}" for entry in not_ready)
    ready = len(pod_ids) - len(not_ready)
    if error.code in (_outcome.WAIT_TIMEOUT, _outcome.WAIT_INTERRUPTED):
        verb = "Timed out" if error.code == _outcome.WAIT_TIMEOUT else "Interrupted"
        head = f"{verb} after {error.elapsed}s waiting for {error.label} ({ready} of {len(pod_ids)} ready)"
    else:
        head = error.message[:1].upper() + error.message[1:]
    inspect_ids = ",".join(entry["id"] for entry in not_ready) or ",".join(pod_ids)
    msg = (
        f"{head}. Not ready: {listing or 'none'}. Nothing was deleted: inspect the pods with runpod.cloud.pod_info "
        f"ids={inspect_ids}, or delete one with runpod.cloud.pod id=<id> state=absent (pods bill by the second)."
    )
    return msg, {"not_ready": not_ready}


class _FirstReadBackend:
    """Hands the wait's first poll the list read already made, so a wait starts without a second read."""

    def __init__(self, backend, first_read):
        self._backend = backend
        self._first = first_read

    def list_pods(self, runtime=True, attempts=None):
        if self._first is not None:
            pods, self._first = self._first, None
            return pods
        return self._backend.list_pods(runtime=runtime, attempts=attempts)


class PodInfoWait(RunPodModule):
    """What ``runpod.cloud.pod_info`` needs to wait for its pods (``wait_pods``), on either side of the handoff."""

    result_key = "pods"
    resource_kind = "pod"
    controller_wait = True

    def info_hint(self, resource_id):
        return f"runpod.cloud.pod_info id={resource_id}"

    def delete_hint(self, resource_id):
        return f"runpod.cloud.pod id={resource_id} state=absent"

    def resume(self, handoff):
        first_read = [PodView.model_validate(pod) for pod in handoff["first_read"]]
        self.wait_pods(handoff["pod_ids"], handoff["names"], handoff["timeout"], first_read=first_read)

    def wait_pods(self, pod_ids, names, timeout, first_read):
        """Wait until every pod of ``pod_ids`` is ready; ``self.result`` holds ``pods`` (described, in selection
        order) and ``missing`` as selected. Sets ``pods`` (each as last read), ``missing`` and ``wait``.
        ``first_read`` (the selected pods as the module's one list read returned them) is the first poll."""
        before = {pod["id"]: pod for pod in self.result["pods"]}
        missing = self.result["missing"]
        backend = _FirstReadBackend(self.backend, first_read)
        poller = BatchPodPoller(backend, pod_ids, wait_for=self.wait_options.wait_for, names=names)
        what = "ssh" if self.wait_options.wait_for == "ssh" else "running status"
        count = f"{len(pod_ids)} pod{'' if len(pod_ids) == 1 else 's'}"

        def last_reads(final):
            pods = []
            for pod_id in pod_ids:
                if pod_id in final:
                    pods.append(describe_pod(final[pod_id]["pod"]))
                elif pod_id in poller.last_pods:
                    pods.append(describe_pod(poller.last_pods[pod_id]))
                elif pod_id in before:
                    pods.append(before[pod_id])
            return pods

        outcome = batch_wait(
            self,
            poller,
            count,
            timeout=timeout,
            label=f"{what} on {count}",
            describe_last=lambda: last_reads({}),
            explain_failure=lambda error: explain_batch_failure(error, poller, pod_ids, names),
        )
        final = outcome.value or {}
        self.result["pods"] = last_reads(final)
        self.result["missing"] = [entry for entry in missing if entry not in final]
        self.result["wait"] = outcome.as_dict()

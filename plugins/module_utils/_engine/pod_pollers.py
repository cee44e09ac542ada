# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The pod, fleet and cluster pollers (pure Python, duck-typed backend): docs/dev/wait-and-status.md sections 3
(misses) and 4 (pod readiness). Each ``poll()`` makes one API read (``attempts=1``): the engine's cadence retries.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._engine import ssh_probe as _ssh_probe
from ansible_collections.runpod.cloud.plugins.module_utils._engine.outcome import MissCounter, PollError, is_not_found
from ansible_collections.runpod.cloud.plugins.module_utils._engine.poll import Poller, PollResult, tracked
from ansible_collections.runpod.cloud.plugins.module_utils._vocab import podstate as _podstate

WAIT_FOR = ("ssh", "running")
# One pod's wait may also log in (``wait_for: login``, after the host key step: ``host_key_check.TrustStep``).
POD_WAIT_FOR = (*WAIT_FOR, "login")
# How many host key steps of a batch wait run at once (each runs ssh-keyscan and one bounded log read).
TRUST_CONCURRENCY = 32
# How many waiting pods a batch wait's running count names before "and N more".
COUNT_NAMES = 3


def _terminal_verdict(pod_id, pod, startable=True):  # a cluster's member is not (is_member_down)
    status = _podstate.lifecycle_status(pod)
    start = " (runpod.cloud.pod state=running starts it)" if startable and status == "EXITED" else ""
    return f"pod {pod_id} is {status.lower()}, so the wait cannot succeed{start}"


def _state(pod, wait_for):
    """``(detail, ssh address or None, ready)`` before any probe; ``wait_for=running`` is ready iff the derived status
    is running (API RUNNING and runtime reported), ``ssh`` probes the address (detail None) once there is one."""
    lifecycle = _podstate.lifecycle_status(pod)
    if wait_for == "running" and _podstate.derive(pod)[0] == _podstate.RUNNING:
        return "pod running", _podstate.public_ssh(pod), True
    if lifecycle != "RUNNING":
        return f"pod status {lifecycle.lower() or 'unknown'}", None, False
    if wait_for == "running":
        return "pod running, container not up yet", None, False
    address = _podstate.public_ssh(pod)
    return ("ssh port not allocated yet" if address is None else None), address, False


def _imminent(pod, before):
    """A transition is close: STARTING, RUNNING without the runtime or the SSH port yet, or a status that changed
    since the read before (``before``; None on the first read, which follows a create or a start): on a fast host
    the next change follows fast, and the read that shows the port must come before sshd answers (section 1.1).
    """
    status = _podstate.lifecycle_status(pod)
    return status in ("STARTING", "RUNNING") or before is None or status != _podstate.lifecycle_status(before)


def _address_text(address):
    return _ssh_probe.format_address(address["host"], address["port"])


class PodPoller(Poller):
    """Wait for one pod: ``wait_for='ssh'`` (banner on public 22), ``'running'`` (runtime reported) or ``'login'``;
    one ``pods.list()`` per poll, value ``{"pod", "ssh"}``; the recheck between reads only re-probes the address."""

    def __init__(self, backend, pod_id, wait_for="ssh", probe=None, trust=None):
        self.misses = tracked("pod", pod_id, wait_for, POD_WAIT_FOR)
        self.backend = backend
        self.pod_id = pod_id
        self.wait_for = wait_for
        self.probe = probe if probe is not None else _ssh_probe.probe
        self.last_pod = None
        # After the banner: the host key check and the login (None: the banner is enough).
        self.trust = trust

    def lost(self):
        return self.misses.ever_seen

    def poll(self):
        try:
            pods = self.backend.pods.list(attempts=1)
        except Exception:
            self.misses.read_failed()
            raise
        pod = next((entry for entry in pods or () if entry is not None and entry.id == self.pod_id), None)
        if pod is None:
            return PollResult(False, self.misses.missed())
        self.misses.seen()
        before, self.last_pod = self.last_pod, pod
        if _podstate.is_terminal(pod):
            raise PollError("conflict", _terminal_verdict(self.pod_id, pod), fatal=True)
        detail, address, ready = _state(pod, self.wait_for)
        if ready:
            return PollResult(True, detail, value={"pod": pod, "ssh": address})
        if address is None:
            return PollResult(False, detail, imminent=_imminent(pod, before))
        return self._probe(address, pod)

    def _probe(self, address, pod):
        result = self.probe(address["host"], address["port"], **_ssh_probe.probe_options(self.deadline))
        text = _address_text(address)
        if not result.ok:
            return PollResult(False, f"ssh port {text} allocated but not reachable: {result.detail}",
                              recheck=lambda: self._probe(address, pod))
        ready, detail = True, f"ssh reachable at {text}"
        if self.trust is not None:  # not rechecked between reads: the step reads the container log (an API call)
            ready, detail = self.trust(pod, address, self.deadline)
        return PollResult(ready, detail, value={"pod": pod, "ssh": address} if ready else None)


class BatchPodPoller(Poller):
    """Wait for several pods: one list read per poll, concurrent probes, a fatal ``conflict``/``not_found`` naming
    every terminal/vanished pod. ``read`` replaces the list read, ``gone`` is what a 404 on it means, ``pod_count``
    makes listed pods join in rank order (``cluster_poller``); ``trust`` makes each pod's host key step (``trusts``).
    """

    def __init__(self, backend, pod_ids, wait_for="ssh", probe_many=None, read=None, names=None, *,
                 is_terminal=_podstate.is_terminal, gone=None, pod_count=None, trust=None):
        if wait_for not in WAIT_FOR:
            raise ValueError(f"wait_for must be one of {', '.join(WAIT_FOR)}, got {wait_for!r}")
        self.pod_ids = list(dict.fromkeys(pod_ids))
        # Pod id -> name as known before the wait (a pod's name as last listed comes first).
        self.names = dict(names or {})
        self.detail = ""  # the detail of the last result (see BatchLines)
        self.wait_for = wait_for
        self.probe_many = probe_many if probe_many is not None else _ssh_probe.probe_many
        self.misses = {pod_id: MissCounter("pod", pod_id) for pod_id in self.pod_ids}
        self.states = {pod_id: "pod not listed yet" for pod_id in self.pod_ids}
        self.last_pods = {}
        self.done = {}
        # The pods whose state failed the wait (terminal, or vanished): the ones whose logs explain the failure.
        self.failed = []
        self.imminent = False
        self._list_pods = read or (lambda: backend.pods.list(attempts=1))
        # Whether a listed pod can no longer become ready (fails the whole wait at once).
        self.is_terminal = is_terminal
        self.gone = gone
        self.pod_count = pod_count
        self.trust = trust
        self.trusts = {}

    def poll(self):
        try:
            pods = self._list_pods()
        except Exception as err:
            if self.gone is not None and is_not_found(err):
                raise PollError("not_found", self.gone, fatal=True) from err
            for counter in self.misses.values():
                counter.read_failed()
            raise
        listed = [entry for entry in pods or () if entry is not None] if self.pod_count is not None else ()
        # A cluster's members join the wait as they are listed (placed), in rank order.
        for pod in sorted(listed, key=lambda pod: (pod.cluster_rank is None, pod.cluster_rank or 0)):
            if pod.id not in self.misses:
                self.pod_ids.append(pod.id)
                self.misses[pod.id] = MissCounter("pod", pod.id)
                self.states[pod.id] = "pod not listed yet"
        return self._evaluate(pods)

    def _expected(self):
        return max(len(self.pod_ids), self.pod_count or 0)

    def name_of(self, pod_id):
        """The pod's name as last listed, else as known before the wait; None when there is none."""
        pod = self.last_pods.get(pod_id)
        return (pod.name if pod is not None else None) or self.names.get(pod_id) or None

    def count_line(self, shown=COUNT_NAMES):
        """The running count of a batch wait: ``2/5 ready; waiting for trainer-3, trainer-4 and 1 more``."""
        waiting = [self.name_of(pod_id) or pod_id for pod_id in self.pod_ids if pod_id not in self.done]
        unlisted = self._expected() - len(self.pod_ids)  # cluster members not listed yet
        line = f"{len(self.done)}/{self._expected()} ready"
        if not waiting:
            return f"{line}; waiting for {unlisted} member(s) not listed yet" if unlisted > 0 else line
        more = len(waiting[shown:]) + max(unlisted, 0)
        return f"{line}; waiting for {', '.join(waiting[:shown])}" + (f" and {more} more" if more else "")

    def _evaluate(self, pods):
        listed = {entry.id: entry for entry in pods or () if entry is not None}
        terminal, vanished = [], []
        targets: dict[str, Any] = {}
        self.imminent = False  # the cadence follows the pod nearest to a transition
        for pod_id in self.pod_ids:
            if pod_id in self.done:
                continue
            pod = listed.get(pod_id)
            if pod is None:
                try:
                    self.states[pod_id] = self.misses[pod_id].missed()
                except PollError as verdict:
                    vanished.append(verdict.message)
                    self.failed.append(pod_id)
                continue
            self.misses[pod_id].seen()
            before, self.last_pods[pod_id] = self.last_pods.get(pod_id), pod
            if self.is_terminal(pod):
                self.states[pod_id] = f"pod status {_podstate.lifecycle_status(pod).lower() or 'unknown'}"
                terminal.append(_terminal_verdict(pod_id, pod, self.is_terminal is _podstate.is_terminal))
                self.failed.append(pod_id)
                continue
            detail, address, ready = _state(pod, self.wait_for)
            if ready:
                self.done[pod_id] = {"pod": pod, "ssh": address}
            elif address is None:
                self.imminent = self.imminent or _imminent(pod, before)
            else:  # replaced by the probe's verdict, unless another pod fails the wait before the probe round
                detail = f"ssh port {_address_text(address)} allocated"
                targets[pod_id] = address
            self.states[pod_id] = detail
        if terminal or vanished:
            raise PollError("conflict" if terminal else "not_found", "; ".join(terminal + vanished), fatal=True,
                            states=dict(self.states))
        return self._probe_round(targets)

    def _trusted(self, pod_id, address):
        step = self.trusts.get(pod_id)
        if step is None:
            step = self.trusts[pod_id] = self.trust()
        try:
            ready, detail = step(self.last_pods[pod_id], address, self.deadline)
        except PollError as error:  # a mismatch: the whole wait fails, naming this pod
            self.states[pod_id] = error.code
            self.failed.append(pod_id)
            raise PollError(error.code, error.message, status=error.status, fatal=error.fatal,
                            states=dict(self.states)) from error
        self.states[pod_id] = detail
        if ready:
            self.done[pod_id] = {"pod": self.last_pods[pod_id], "ssh": address}

    def _probe_round(self, targets):
        checked = {}
        results = self.probe_many({pod_id: (address["host"], address["port"]) for pod_id, address in targets.items()},
                                  **_ssh_probe.probe_options(self.deadline)) if targets else {}
        for pod_id, address in targets.items():
            result, text = results[pod_id], _address_text(address)
            if result.ok and self.trust is not None:
                checked[pod_id] = address
            elif result.ok:
                self.states[pod_id] = f"ssh reachable at {text}"
                self.done[pod_id] = {"pod": self.last_pods[pod_id], "ssh": address}
            else:
                self.states[pod_id] = f"ssh port {text} allocated but not reachable: {result.detail}"
        if checked:  # the host key steps; the first mismatch fails the wait once every started step has ended
            with ThreadPoolExecutor(min(TRUST_CONCURRENCY, len(checked))) as pool:
                list(pool.map(lambda item: self._trusted(*item), checked.items()))
        # A pod whose host key step ran is not rechecked between reads: the step reads its container log (an API call).
        pending = {pod_id: address for pod_id, address in targets.items()
                   if pod_id not in self.done and pod_id not in checked}
        waiting = [f"{pod_id} ({self.states[pod_id]})" for pod_id in self.pod_ids if pod_id not in self.done]
        if len(self.pod_ids) < (self.pod_count or 0):
            waiting.append(f"{self.pod_count - len(self.pod_ids)} more member(s) not listed yet")
        if not waiting:
            self.detail = f"all {len(self.pod_ids)} pods ready"
            return PollResult(True, self.detail, value=dict(self.done), states=dict(self.states),
                              summary=self.count_line())
        self.detail = f"{len(self.done)} of {self._expected()} pods ready; waiting for {', '.join(waiting)}"
        recheck = (lambda: self._probe_round(pending)) if pending else None
        return PollResult(False, self.detail, recheck=recheck, states=dict(self.states), imminent=self.imminent,
                          summary=self.count_line())


class BatchLines:
    """A batch wait's transitions for the controller's display: one entry per pod whose state changed, its
    ``subject`` naming the pod (``pod trainer-1 (abc123)``); one no pod explains (a failed read) under ``subject``."""

    def __init__(self, poller, on_transition, subject):
        self.poller = poller
        self.on_transition = on_transition
        self.subject = subject
        self.shown = {}

    def __call__(self, entry):
        poller, changed = self.poller, False
        for pod_id in poller.pod_ids:
            state = poller.states.get(pod_id)
            if state is None or state == self.shown.get(pod_id):
                continue
            self.shown[pod_id] = state
            changed = True
            name = poller.name_of(pod_id)
            subject = f"pod {name} ({pod_id})" if name else f"pod {pod_id}"
            self.on_transition({"elapsed": entry["elapsed"], "state": state, "subject": subject})
        if not changed and entry["state"] != poller.detail:
            self.on_transition(dict(entry, subject=self.subject))


def cluster_poller(backend, cluster_id, pod_count, probe_many=None, trust=None):
    """Wait until ``pod_count`` members of a cluster answer SSH; a member that is down is a ``conflict`` (it cannot
    be started on its own), a deleted cluster ``not_found``."""
    return BatchPodPoller(backend, [], wait_for="ssh", probe_many=probe_many, trust=trust,
                          read=lambda: backend.clusters.pods(cluster_id, attempts=1),
                          is_terminal=_podstate.is_member_down, pod_count=int(pod_count or 0),
                          gone=f"cluster {cluster_id} no longer exists, so it was deleted while waiting")

# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""What the modules do with RunPod's logs (docs/dev/logs.md): a failed wait's, the controller's live line, ``logs: N``
of the info modules. Every read is bounded and never changes a task's outcome or code."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._backend import log_reads as _reads
from ansible_collections.runpod.cloud.plugins.module_utils._engine import outcome as _outcome
from ansible_collections.runpod.cloud.plugins.module_utils._engine import poll as _wait
from ansible_collections.runpod.cloud.plugins.module_utils._module.specs import SECRET_OPTIONS, info_lines
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.log_lines import (
    FAILURE_LINES,
    SOURCES,
    logs_block,
    newest,
    quote,
)

# A failed wait whose error says the key is refused reads no logs: the read would be refused the same way.
NOT_READ_CODES = ("unauthorized", "forbidden", "no_credentials")
# A failure is reported at most a second after the event that ended the wait (docs/dev/logs.md, "failures on time").
FAILURE_QUIET = 0.3
FAILURE_BUDGET = 1.0 - FAILURE_QUIET
FAILURE_READ = {"budget": FAILURE_BUDGET, "quiet": FAILURE_QUIET}
# Pods not ready whose logs a batch wait that ran out of time reads: one round of concurrent reads, both sources.
FAILURE_PODS = _reads.MAX_CONCURRENT_READS // 2
QUOTED = 3  # not-ready resources a batch failure message quotes before "and N more"
# The controller's live system line (docs/dev/logs.md, "Where logs appear").
LIVE_EVERY = 5.0
LIVE_PODS = 3
LIVE_BUDGET = 1.5
LIVE_QUIET = 0.5


def task_secrets(owner):
    """The values a log line must never show (docs/dev/logs.md, "Where logs appear")."""
    params = owner.params
    found = [*(params.get("env") or {}).values(), *(params.get(key) for key in SECRET_OPTIONS), *owner.no_log_values,
             *(getattr(owner, "log_secrets", None) or ())]
    return [str(value) for value in found if value not in (None, "")]


def reader(owner, **settings):
    return _reads.LogReader(owner.backend, task_secrets(owner), **settings)


def read_pods(owner, pod_ids, lines, sources=SOURCES, stops=None, **settings):
    """``{id: logs block}``; whatever goes wrong is a reason, never an exception (``stops``: ``LogReader.pods``')."""
    try:
        return reader(owner, **settings).pods(pod_ids, lines, sources, stops)
    except Exception as exc:  # logs are extra information: they never change how a task ends
        return {pod_id: logs_block(unavailable=f"reading the logs failed ({type(exc).__name__})") for pod_id in pod_ids}


def _not_read(error):
    return logs_block(unavailable=f"not read: the wait failed with {error.code}")


def pod_failure_logs(owner, pod_id):
    """``failure_logs`` of one pod's wait: ``logs`` in the result, the newest container line in ``msg``."""

    def add(error, extra):
        refused = error.code in NOT_READ_CODES
        block = _not_read(error) if refused else read_pods(owner, [pod_id], FAILURE_LINES, **FAILURE_READ)[pod_id]
        extra["logs"] = block
        return f"; {quote(block)}"

    return add


def batch_failure_logs(owner, poller):
    """``failure_logs`` of a batch wait: each ``not_ready`` entry gets its ``logs``, read for the pods that explain
    the failure, the others say why not (docs/dev/logs.md, "Which logs a failure reads")."""

    def add(error, extra):
        entries = extra.get("not_ready") or []
        if not entries:
            return ""
        if error.code in NOT_READ_CODES:
            blocks = {entry["id"]: _not_read(error) for entry in entries}
        else:
            waiting = [entry["id"] for entry in entries]
            unready = error.code in (_outcome.WAIT_TIMEOUT, _outcome.WAIT_INTERRUPTED)
            failed = set(getattr(poller, "failed", ()) or ())
            wanted = waiting[:FAILURE_PODS] if unready else [pod_id for pod_id in waiting if pod_id in failed]
            blocks = read_pods(owner, wanted, FAILURE_LINES, **FAILURE_READ) if wanted else {}
            skipped = logs_block(unavailable=(
                f"not read: only the first {FAILURE_PODS} pods not ready are read when the wait ends unready"
                if unready else "not read: this pod did not fail the wait"))
            blocks = {entry["id"]: blocks.get(entry["id"], skipped) for entry in entries}
        for entry in entries:
            entry["logs"] = blocks[entry["id"]]
        shown = [entry for entry in entries if not (entry["logs"]["unavailable"] or "").startswith("not read: ")]
        shown = shown or entries[:1]  # a failure whose logs were not read says why, once
        quoted = "; ".join(f"{entry['id']} {quote(entry['logs'])}" for entry in shown[:QUOTED])
        more = len(shown) - QUOTED
        return f" Logs: {quoted}" + (f"; and {more} more (not_ready[].logs)." if more > 0 else ".")

    return add


def failing_worker(workers):
    """The worker whose logs say why the endpoint is not ready, else None (docs/dev/logs.md, "Where logs appear")."""
    candidates = [worker for worker in workers.workers
                  if not worker.is_stale and worker.status in ("UNHEALTHY", "INITIALIZING", "THROTTLED")]
    if not candidates:
        return None
    unhealthy = [worker for worker in candidates if worker.status == "UNHEALTHY"]
    return max(unhealthy or candidates, key=lambda worker: worker.started_at or "")


def endpoint_failure_logs(owner, endpoint_id, workers):
    """``failure_logs`` of an endpoint's wait: ``logs`` of ``failing_worker`` in the wait's last ``workers()``."""

    def add(error, extra):
        if error.code in NOT_READ_CODES:
            block = dict(_not_read(error), worker_id=None)
        else:
            worker = None
            try:
                listed = workers()
                worker = failing_worker(listed) if listed is not None else None
                block = logs_block(unavailable="no unhealthy or initializing worker on the current release"
                                   if listed is not None else "no worker list was read during the wait")
                if worker is not None:
                    block = reader(owner, **FAILURE_READ).workers(endpoint_id, [worker.id], FAILURE_LINES)[worker.id]
            except Exception as exc:  # logs never change how a task ends
                block = logs_block(unavailable=f"reading the logs failed ({type(exc).__name__})")
            block = dict(block, worker_id=worker.id if worker is not None else None)
        extra["logs"] = block
        who = f"worker {block['worker_id']} " if block["worker_id"] else ""
        return f"; {who}{quote(block)}"

    return add


class LiveSystemLines:
    """The newest system line of each pod ``pending()`` (``{id: subject}``) names, through ``owner.progress``. Read in
    a thread beside the polls, shown by the wait's own (Ansible's display is not written from two threads)."""

    def __init__(self, owner, pending, interval, clock=None, background=True):
        self.owner = owner
        self.pending = pending
        self.every = max(LIVE_EVERY, 2 * float(interval or 0))
        self.clock = clock if clock is not None else _wait.SystemClock()
        self.background = background
        self.next_at = None
        self.shown = {}
        self._reader = None
        self._thread = None
        self._found = None  # (subjects, blocks) of the last read, not shown yet

    def __call__(self):
        self._show()
        now = self.clock.now()
        reading = self._thread is not None and self._thread.is_alive()
        if reading or (self.next_at is not None and now < self.next_at):
            return
        self.next_at = now + self.every
        subjects = dict(list(self.pending().items())[:LIVE_PODS])
        if not subjects or self._quota_in_force():
            return
        if not self.background:
            self._read(subjects)
            self._show()
            return
        self._thread = threading.Thread(target=self._read, args=(subjects,), name="runpod-live-logs", daemon=True)
        self._thread.start()

    def _quota_in_force(self):
        """The live line is a courtesy: it reads nothing while a quota window runs low (under a fifth, or 10)."""
        client = getattr(self.owner.backend, "client", None)
        keeper = getattr(client, "quota", None)
        if keeper is None:
            return False
        if not getattr(client, "requests_made", 0):
            return True  # no answer has said what the quota is yet (a wait resumed on its first read's answer)
        return any(remaining < max(10, 0.2 * (quota or 0)) for remaining, quota, _reset in keeper.windows().values())

    def _read(self, subjects):
        try:
            if self._reader is None:
                self._reader = reader(self.owner, budget=LIVE_BUDGET, quiet=LIVE_QUIET, clock=self.clock)
            self._found = (subjects, self._reader.pods(list(subjects), 1, sources=("system",)))
        except Exception:  # the live line is a courtesy: never a reason for the wait to fail
            self._found = None

    def _show(self):
        found, self._found = self._found, None
        if found is None:
            return
        subjects, blocks = found
        for pod_id, subject in subjects.items():
            entry = newest(blocks.get(pod_id), "system")
            if entry is not None and entry["line"] != self.shown.get(pod_id):
                self.shown[pod_id] = entry["line"]
                self.owner.progress(f"{subject} [system] {entry['line']}")


def pending_pods(poller):
    """``{id: subject}`` of the pods a batch poller still waits for (for ``LiveSystemLines``)."""
    names = {pod_id: poller.name_of(pod_id) for pod_id in poller.pod_ids if pod_id not in poller.done}
    return {pod_id: f"pod {name} ({pod_id})" if name else f"pod {pod_id}" for pod_id, name in names.items()}


def live_pod_lines(waiter, pending):
    """A ``LiveSystemLines`` when the engine's lines go to the controller's display, else None."""
    return LiveSystemLines(waiter, pending, waiter.host.wait_options.interval) if waiter.progress is not None else None


def add_pod_logs(owner, pods):
    """``logs`` (the newest ``logs`` lines per source) on each described pod, read concurrently in one budget."""
    lines = info_lines(owner)
    if lines and pods:
        blocks = read_pods(owner, [pod["id"] for pod in pods], lines)
        for pod in pods:
            pod["logs"] = blocks[pod["id"]]


def endpoint_logs(owner, endpoint_ids, workers):
    """``{endpoint id: [logs block with worker_id and status, ...]}`` of ``workers`` (``read_workers``')."""
    lines = info_lines(owner)
    found: dict = {endpoint_id: [] for endpoint_id in endpoint_ids}
    targets, about = {}, {}
    for endpoint_id in endpoint_ids:
        listed = workers.get(endpoint_id)
        if isinstance(listed, RunPodError):
            block = logs_block(unavailable=f"the worker list: {listed.message} ({listed.code})")
            found[endpoint_id].append(dict(block, worker_id=None, status=None))
            continue
        for worker in listed.workers if listed is not None else ():
            key = (endpoint_id, worker.id)
            targets[key] = _reads.worker_logs_path(endpoint_id, worker.id)
            about[key] = worker.status
    if lines and targets:
        try:
            blocks = reader(owner).read(targets, lines)
        except Exception as exc:  # logs never change how a task ends
            blocks = {key: logs_block(unavailable=f"reading the logs failed ({type(exc).__name__})") for key in targets}
        for (endpoint_id, worker_id), block in blocks.items():
            found[endpoint_id].append(dict(block, worker_id=worker_id, status=about[(endpoint_id, worker_id)]))
    return found


def read_workers(backend, endpoint_ids, max_workers=_reads.MAX_CONCURRENT_READS):
    """``{endpoint id: WorkerSummary or the RunPodError of its read}``, read concurrently."""
    if not endpoint_ids:
        return {}

    def one(endpoint_id):
        try:
            return backend.endpoints.workers(endpoint_id)
        except RunPodError as error:
            return error

    with ThreadPoolExecutor(max_workers=max(1, min(max_workers, len(endpoint_ids)))) as pool:
        return dict(zip(endpoint_ids, pool.map(one, endpoint_ids), strict=True))

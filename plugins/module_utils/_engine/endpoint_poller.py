# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The endpoint poller (pure Python, duck-typed backend): a worker on the current release, or the whole rollout."""

from __future__ import annotations

from ansible_collections.runpod.cloud.plugins.module_utils._engine.outcome import classify
from ansible_collections.runpod.cloud.plugins.module_utils._engine.poll import Poller, PollResult, counted_read, tracked
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.endpoint_fields import HEALTH_KEYS, health_counts

ENDPOINT_WAIT_FOR = ("ready", "rollout")
_UNREAD = object()  # a worker list read that failed (transient), unlike None: no worker list on this backend


def rollout_summary(workers):
    """``{in_progress, workers_on_latest, workers_total, percent_on_latest}`` from a v2 ``WorkerSummary``."""
    latest = sum(1 for worker in workers.workers if not worker.is_stale)
    total = len(workers.workers)
    return {"in_progress": latest < total, "workers_on_latest": latest, "workers_total": total,
            "percent_on_latest": 100 * latest // total if total else 0}


class EndpointPoller(Poller):
    """Wait for a serverless endpoint (docs/dev/wait-and-status.md, sections 3 and 5): ``wait_for='ready'`` (a worker
    on the current release serves) or ``'rollout'`` (that, and no stale worker left)."""

    # As the last poll read them (None until one did): the wait's result and failure describe them.
    last_health: dict | None = None
    last_version: int | None = None
    last_rollout: dict | None = None
    last_workers = None  # the WorkerSummary of the last worker read (a failure's logs pick their worker from it)

    def __init__(self, backend, endpoint_id, wait_for="ready"):
        self.misses = tracked("endpoint", endpoint_id, wait_for, ENDPOINT_WAIT_FOR)
        self.backend = backend
        self.endpoint_id = endpoint_id
        self.wait_for = wait_for

    def lost(self):
        return self.misses.ever_seen

    def poll(self):
        missed, health = counted_read(self.misses, lambda: self.backend.endpoints.health(self.endpoint_id, attempts=1))
        if missed is not None:
            return missed
        # The worker list is read last: it is the fresher of the two, so a worker that turns ready between
        # the reads is reported from the list (worker_idle), not only through /health's counters.
        workers = self._read_workers()
        # A /health without a body counts nothing as ready.
        counts = health_counts(health) or dict.fromkeys(HEALTH_KEYS, 0)
        self.last_health = counts
        detail = "workers " + ", ".join(f"{key} {counts[key]}" for key in HEALTH_KEYS if key != "idle")
        if workers is _UNREAD:
            return PollResult(False, f"{detail}; worker list unavailable, so the release is unknown")
        self.last_workers = workers
        self.last_version = workers.endpoint_version
        self.last_rollout = rollout = rollout_summary(workers)
        stale = rollout["workers_total"] - rollout["workers_on_latest"]
        signal, worker_id = self._worker_signal(workers)
        if signal is None and not stale and counts["ready"] > 0:
            # Only /health's ready: its running counts a worker RunPod scheduled, before that worker serves,
            # and the worker list (read here) already shows every running worker.
            signal = "health_ready"
        if stale:
            version = f"v{self.last_version}" if self.last_version is not None else "(version unknown)"
            detail += (
                f"; release {version}: {rollout['workers_on_latest']} of {rollout['workers_total']} workers on it, "
                f"{stale} stale (still on an older release)"
            )
            if self.wait_for == "rollout":
                signal = None
        if signal is None:
            return PollResult(False, detail, imminent=bool(stale))
        value = {"ready_signal": signal, "health": counts, "worker_id": worker_id,
                 "version": self.last_version, "rollout": self.last_rollout}
        return PollResult(True, detail, value=value)

    def _read_workers(self):
        try:
            return self.backend.endpoints.workers(self.endpoint_id, attempts=1)
        except Exception as err:
            if classify(err):
                raise
            return _UNREAD

    @staticmethod
    def _worker_signal(workers):
        live = [worker for worker in workers.workers if not worker.is_stale]
        for wanted, signal in (("IDLE", "worker_idle"), ("RUNNING", "worker_running")):
            for worker in live:
                if worker.status.upper() == wanted:
                    return signal, worker.id
        return None, None

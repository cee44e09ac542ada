# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The serverless job poller (pure Python, duck-typed backend): a job until it reaches a terminal status.

It never cancels the job: a wait that ends early leaves it running, and the failure names it.
"""

from __future__ import annotations

from ansible_collections.runpod.cloud.plugins.module_utils._engine.outcome import MissCounter
from ansible_collections.runpod.cloud.plugins.module_utils._engine.poll import Poller, PollResult, counted_read

# docs/dev/api-notes.md, section 6: the statuses the SDKs treat as terminal.
TERMINAL = ("COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT")
# A terminal status that is not success -> the task's failure code.
FAILURE_CODES = {"FAILED": "job_failed", "CANCELLED": "job_cancelled", "TIMED_OUT": "job_timed_out"}


def is_terminal(job):
    return bool(job) and str(job.get("status") or "").upper() in TERMINAL


def job_detail(job):
    """The one-line state of a job for the wait's history: ``job <id> IN_PROGRESS (queued 1.2 s, running 3 s)``."""
    status = str(job.get("status") or "UNKNOWN")
    times = [f"{word} {value / 1000:g} s" for key, word in (("delay_time", "queued"), ("execution_time", "running"))
             if isinstance(value := job.get(key), (int, float)) and not isinstance(value, bool) and value > 0]
    return f"job {job.get('id')} {status}" + (f" ({', '.join(times)})" if times else "")


class JobPoller(Poller):
    """Wait for a job to reach a terminal status (docs/dev/wait-and-status.md, section 8); ``seed``: the job view the
    caller has (the ``/runsync`` answer), the first poll's."""

    _previous_status: str | None = None  # the status the previous poll saw

    def __init__(self, backend, endpoint_id, job_id, seed=None):
        if not job_id:
            raise ValueError("JobPoller needs a job id")
        self.backend = backend
        self.misses = MissCounter("job", job_id)
        self.endpoint_id = endpoint_id
        self.job_id = job_id
        self.last = seed
        self._seed = seed

    def lost(self):
        # The job was read and then no longer known (deleted by someone else, or purged from the queue).
        return self.misses.ever_seen

    def poll(self):
        if self._seed is not None:
            job, self._seed = self._seed, None
            self.misses.seen()
        else:
            missed, job = counted_read(
                self.misses, lambda: self.backend.jobs.status(self.endpoint_id, self.job_id, attempts=1))
            if missed is not None:
                return missed
            self.last = job
        status = str(job.get("status") or "").upper()
        changed = self._previous_status is not None and status != self._previous_status
        self._previous_status = status
        if status in TERMINAL:
            return PollResult(True, job_detail(job), value=job)
        return PollResult(False, job_detail(job), imminent=changed)

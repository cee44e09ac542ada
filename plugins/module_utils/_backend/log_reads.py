# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""RunPod's logs of pods and serverless workers, read concurrently within one budget (docs/dev/logs.md). Nothing here
raises: a failed read gives its block an ``unavailable`` reason, so logs never change the outcome of a task."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from ansible_collections.runpod.cloud.plugins.module_utils._api.sse import QUIET, read_log_stream
from ansible_collections.runpod.cloud.plugins.module_utils._backend.shared import quote_id
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.log_lines import (
    SOURCES,
    Masker,
    logs_block,
    merge_blocks,
)

# Seconds every read of one call shares (the reads overlap, so it is the call's bound, not each read's).
READ_BUDGET = 5.0
MAX_CONCURRENT_READS = 8


def worker_logs_path(endpoint_id, worker_id):
    return f"serverless/{quote_id(endpoint_id)}/workers/{quote_id(worker_id)}/logs"


class LogReader:
    """Reads logs for a task, masking ``secrets`` (its env values, passwords) and the API key in every line."""

    def __init__(self, backend, secrets=(), *, budget=READ_BUDGET, quiet=QUIET, clock=None,
                 concurrency=MAX_CONCURRENT_READS):
        self.client = backend.client
        self.clock = clock if clock is not None else self.client.clock
        self.mask = Masker([*secrets, (getattr(backend, "options", None) or {}).get("api_key")])
        self.budget, self.quiet, self.concurrency = budget, quiet, max(1, int(concurrency))

    def read(self, targets, lines, sources=SOURCES, stops=None):
        """``{key: logs block}`` for ``targets`` (``{key: path}``): the newest ``lines`` of each of ``sources``.
        ``stops`` (``{key: predicate}``) ends a key's reads early (``sse.read_log_stream``'s ``stop``)."""
        deadline = self.clock.now() + self.budget
        jobs = [(key, path, source) for key, path in targets.items() for source in sources]

        def one(job):
            key, path, source = job
            try:
                return read_log_stream(self.client, path, tail=lines, deadline=deadline, clock=self.clock,
                                       mask=self.mask, source=source, quiet=self.quiet, stop=(stops or {}).get(key))
            except Exception as exc:  # logs are extra information: a bug here must not fail the task
                return logs_block(unavailable=self.client.redact(f"reading the logs failed ({type(exc).__name__})"))

        with ThreadPoolExecutor(max_workers=max(1, min(self.concurrency, len(jobs)))) as pool:
            blocks = list(pool.map(one, jobs))
        found: dict = {key: [] for key in targets}
        for (key, _path, _source), block in zip(jobs, blocks, strict=True):
            found[key].append(block)
        return {key: merge_blocks(parts) for key, parts in found.items()}

    def pods(self, pod_ids, lines, sources=SOURCES, stops=None):
        return self.read({pod_id: f"pods/{quote_id(pod_id)}/logs" for pod_id in pod_ids}, lines, sources, stops)

    def workers(self, endpoint_id, worker_ids, lines, sources=SOURCES):
        return self.read({worker_id: worker_logs_path(endpoint_id, worker_id) for worker_id in worker_ids},
                         lines, sources)

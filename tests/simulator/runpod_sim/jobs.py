# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Serverless jobs: the queue of each endpoint, the workers that take jobs, and the scripted outcomes.

A job is ``IN_QUEUE`` until its queue delay has passed and an ``IDLE`` worker of the endpoint is free; it is then
``IN_PROGRESS`` on that worker (the worker reads ``RUNNING`` in the worker list and in ``/health``) for its run time,
and ends ``COMPLETED`` (output from the script, a function of the input), ``FAILED`` (the script's error text) or
``TIMED_OUT`` (its run time exceeded ``policy.executionTimeout``, else the endpoint's ``timeout``). A cancel ends an
active job ``CANCELLED`` at once and frees its worker. An endpoint without a free worker starts one (up to
``workers.max``), which boots for ``worker_boot_delay`` and leaves after ``idleTimeout`` seconds without a job when
the endpoint has more than ``workers.min``. Every delay is in simulated seconds (scaled by ``time_scale``); the times a
job reports (``delayTime``, ``executionTime``) are simulated milliseconds.

The script of an endpoint (``POST /_sim/endpoints/{id}/jobs``, see ``validate_script``) applies to the jobs submitted
after it; ``rules`` pick other settings for inputs that contain a given subset.
"""

from __future__ import annotations

import copy
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from .store import Endpoint, Store, Worker

IN_QUEUE = "IN_QUEUE"
IN_PROGRESS = "IN_PROGRESS"
COMPLETED = "COMPLETED"
FAILED = "FAILED"
CANCELLED = "CANCELLED"
TIMED_OUT = "TIMED_OUT"
ACTIVE = (IN_QUEUE, IN_PROGRESS)
TERMINAL = (COMPLETED, FAILED, CANCELLED, TIMED_OUT)
OUTCOMES = (COMPLETED, FAILED, TIMED_OUT)
OUTPUT_MODES = ("echo", "constant", "format")
DEFAULT_ERROR = "handler raised an exception"
SCRIPT_KEYS = ("queue_delay", "run_time", "outcome", "error", "output", "output_value", "output_format", "stream")


class ScriptError(ValueError):
    """Bad admin input (400)."""


def _settings_problem(settings: dict[str, Any], where: str) -> None:
    for key, value in settings.items():
        if key not in SCRIPT_KEYS:
            raise ScriptError(f"{where}: unknown key {key!r}; expected one of {', '.join(SCRIPT_KEYS)}")
        if key in ("queue_delay", "run_time"):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise ScriptError(f"{where}: {key} must be a non-negative number of seconds")
        elif key == "outcome" and value not in OUTCOMES:
            raise ScriptError(f"{where}: outcome must be one of {', '.join(OUTCOMES)}")
        elif key == "output" and value not in OUTPUT_MODES:
            raise ScriptError(f"{where}: output must be one of {', '.join(OUTPUT_MODES)}")
        elif key in ("error", "output_format") and not isinstance(value, str):
            raise ScriptError(f"{where}: {key} must be a string")
        elif key == "stream" and not isinstance(value, list):
            raise ScriptError(f"{where}: stream must be a list of chunks")


def validate_script(body: Any) -> dict[str, Any]:
    """``{"queue_delay": s, "run_time": s, "outcome": COMPLETED|FAILED|TIMED_OUT, "error": text,
    "output": echo|constant|format, "output_value": any, "output_format": "Hello {name}", "stream": [chunks],
    "rules": [{"match": {input subset}, <any of those keys>}]}``; raises ``ScriptError``."""
    if not isinstance(body, dict):
        raise ScriptError("the job script must be a JSON object")
    script = {key: value for key, value in body.items() if key != "rules"}
    _settings_problem(script, "job script")
    rules = body.get("rules", [])
    if not isinstance(rules, list):
        raise ScriptError("rules must be a list")
    for index, rule in enumerate(rules):
        if not isinstance(rule, dict) or not isinstance(rule.get("match"), dict):
            raise ScriptError(f"rules[{index}] must be an object with a match object")
        _settings_problem({key: value for key, value in rule.items() if key != "match"}, f"rules[{index}]")
    return {**copy.deepcopy(script), "rules": copy.deepcopy(rules)}


def settings_for(script: dict[str, Any], job_input: Any) -> dict[str, Any]:
    """The script's settings for ``job_input``: the first rule whose ``match`` the input contains wins."""
    settings = {key: value for key, value in script.items() if key != "rules"}
    if isinstance(job_input, dict):
        for rule in script.get("rules", []):
            if all(job_input.get(key) == value for key, value in rule["match"].items()):
                settings.update({key: value for key, value in rule.items() if key != "match"})
                break
    return settings


def output_of(settings: dict[str, Any], job_input: Any) -> Any:
    """The output a completed job reports: the input (echo), a constant, or a format string over the input."""
    mode = settings.get("output", "echo")
    if mode == "constant":
        return copy.deepcopy(settings.get("output_value"))
    if mode == "format":
        try:
            return str(settings.get("output_format", "")).format_map(job_input if isinstance(job_input, dict) else {})
        except (KeyError, IndexError, ValueError) as exc:
            return f"format error: {exc}"
    return copy.deepcopy(job_input)


@dataclass
class Job:
    id: str
    endpoint_id: str
    input: Any
    settings: dict[str, Any]
    execution_timeout_ms: int
    submitted_at: float  # monotonic
    eligible_at: float  # monotonic: queue delay over
    low_priority: bool = False
    ttl_ms: int | None = None
    webhook: str | None = None
    status: str = IN_QUEUE
    worker_id: str | None = None
    started_at: float | None = None
    ends_at: float | None = None
    ended_at: float | None = None
    output: Any = None
    error: str | None = None
    streamed: int = 0  # chunks already delivered by /stream
    retries: int = 0
    sync: bool = False


class JobBook:
    """Every endpoint's jobs, the scripts, and which worker runs what; advanced with the store's clock."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.jobs: dict[str, Job] = {}
        self.scripts: dict[str, dict[str, Any]] = {}
        self.busy: dict[str, str] = {}  # worker id -> job id
        self.free_since: dict[str, float] = {}  # worker id -> monotonic time its last job ended
        self.on_demand: set[str] = set()  # workers started for queued jobs
        self.retried: dict[str, int] = {}  # endpoint id -> retries
        self.purged: dict[str, int] = {}

    def reset(self) -> None:
        self.jobs.clear()
        self.scripts.clear()
        self.busy.clear()
        self.free_since.clear()
        self.on_demand.clear()
        self.retried.clear()
        self.purged.clear()

    # -- submit, cancel, retry ---------------------------------------------------------------------------------
    def submit(self, endpoint: Endpoint, job_input: Any, policy: dict[str, Any], webhook: str | None,
               sync: bool = False) -> Job:
        now = self.store.now()
        settings = settings_for(self.scripts.get(endpoint.id, {}), job_input)
        timeout_ms = int(policy.get("executionTimeout") or endpoint.timeout_ms)
        job = Job(
            id=("sync-" if sync else "") + f"{uuid.uuid4()}-u1",
            endpoint_id=endpoint.id,
            input=copy.deepcopy(job_input),
            settings=settings,
            execution_timeout_ms=timeout_ms,
            submitted_at=now,
            eligible_at=now + self.store.scaled(float(settings.get("queue_delay", 0))),
            low_priority=bool(policy.get("lowPriority", False)),
            ttl_ms=policy.get("ttl"),
            webhook=webhook,
            sync=sync,
        )
        self.jobs[job.id] = job
        self.advance(now)
        return job

    def get(self, endpoint_id: str, job_id: str) -> Job | None:
        job = self.jobs.get(job_id)
        return job if job is not None and job.endpoint_id == endpoint_id else None

    def cancel(self, job: Job) -> None:
        if job.status in ACTIVE:
            self._end(job, CANCELLED, self.store.now())

    def retry(self, job: Job) -> None:
        """A FAILED or TIMED_OUT job goes back to the queue under the same id."""
        now = self.store.now()
        job.status, job.output, job.error = IN_QUEUE, None, None
        job.worker_id = job.started_at = job.ends_at = job.ended_at = None
        job.streamed = 0
        job.submitted_at = job.eligible_at = now
        job.retries += 1
        self.retried[job.endpoint_id] = self.retried.get(job.endpoint_id, 0) + 1
        self.advance(now)

    def purge(self, endpoint_id: str) -> int:
        """Remove the endpoint's queued jobs (running jobs are not touched)."""
        queued = [job for job in self.jobs.values() if job.endpoint_id == endpoint_id and job.status == IN_QUEUE]
        for job in queued:
            del self.jobs[job.id]
        return len(queued)

    def drop_endpoint(self, endpoint_id: str) -> None:
        """A deleted endpoint cancels its queued and running jobs (runpod-api.md 1.9)."""
        now = self.store.now()
        for job in self.jobs.values():
            if job.endpoint_id == endpoint_id and job.status in ACTIVE:
                self._end(job, CANCELLED, now)

    # -- views -------------------------------------------------------------------------------------------------
    def delay_ms(self, job: Job) -> int:
        until = job.started_at if job.started_at is not None else (job.ended_at or self.store.now())
        return self._ms(until - job.submitted_at)

    def execution_ms(self, job: Job) -> int:
        if job.started_at is None:
            return 0
        return self._ms((job.ended_at or self.store.now()) - job.started_at)

    def _ms(self, seconds: float) -> int:
        return max(0, round(seconds / self.store.config.time_scale * 1000))

    def counts(self, endpoint_id: str) -> dict[str, int]:
        """The ``jobs`` block of ``/health``."""
        counts = dict.fromkeys(("completed", "failed", "inProgress", "inQueue"), 0)
        counts["retried"] = self.retried.get(endpoint_id, 0)
        for job in self.jobs.values():
            if job.endpoint_id != endpoint_id:
                continue
            if job.status == COMPLETED:
                counts["completed"] += 1
            elif job.status in (FAILED, TIMED_OUT):
                counts["failed"] += 1
            elif job.status == IN_PROGRESS:
                counts["inProgress"] += 1
            elif job.status == IN_QUEUE:
                counts["inQueue"] += 1
        return counts

    def stream_chunks(self, job: Job) -> list[Any]:
        """Chunks produced so far: the script's ``stream`` spread evenly over the run time, or the output once done."""
        chunks = job.settings.get("stream")
        if chunks is None:
            return [job.output] if job.status == COMPLETED else []
        if job.status == COMPLETED:
            return list(chunks)
        if job.started_at is None or not chunks:
            return []
        run = max(self.store.scaled(float(job.settings.get("run_time", 0))), 1e-9)
        share = min(1.0, ((job.ended_at or self.store.now()) - job.started_at) / run)
        return list(chunks[: int(share * len(chunks))])

    # -- time --------------------------------------------------------------------------------------------------
    def advance(self, now: float) -> None:
        """Apply every start and end due by ``now``, in time order (so a sparse request stream sees exact times)."""
        for _guard in range(10000):
            running = [job for job in self.jobs.values() if job.status == IN_PROGRESS]
            next_end = min(running, key=lambda job: job.ends_at or 0.0, default=None)
            start = self._next_start(now)
            candidates = (next_end.ends_at if next_end else None, start[0] if start else None)
            moments = [moment for moment in candidates if moment is not None and moment <= now]
            if not moments:
                break
            if next_end is not None and next_end.ends_at is not None and next_end.ends_at == min(moments):
                self._finish(next_end)
            elif start is not None:
                self._start(start[1], start[2], start[0])
        self._scale(now)

    def next_end(self) -> float | None:
        """When the first running job ends (None: no job runs)."""
        return min((job.ends_at for job in self.jobs.values() if job.status == IN_PROGRESS and job.ends_at is not None),
                   default=None)

    def _queue(self, endpoint_id: str) -> list[Job]:
        queued = [job for job in self.jobs.values() if job.endpoint_id == endpoint_id and job.status == IN_QUEUE]
        return sorted(queued, key=lambda job: (job.low_priority, job.submitted_at))

    def _free_at(self, endpoint: Endpoint, worker: Worker) -> float | None:
        """When ``worker`` can take a job (None: never, as things stand)."""
        if worker.id in self.busy or worker.status_override is not None or worker.retire_at is not None:
            return None
        return max(worker.start_at, worker.ready_at, self.free_since.get(worker.id, 0.0))

    def _next_start(self, now: float) -> tuple[float, Job, Worker] | None:
        best = None
        for endpoint in self.store.endpoints.values():
            queue = [job for job in self._queue(endpoint.id) if job.eligible_at <= now]
            if not queue:
                continue
            frees = [(self._free_at(endpoint, worker), worker) for worker in endpoint.workers]
            frees = [(moment, worker) for moment, worker in frees if moment is not None]
            if not frees:
                continue
            moment, worker = min(frees, key=lambda pair: pair[0])
            head = queue[0]
            at = max(moment, head.eligible_at)
            if best is None or at < best[0]:
                best = (at, head, worker)
        return best

    def _start(self, job: Job, worker: Worker, at: float) -> None:
        job.status, job.worker_id, job.started_at = IN_PROGRESS, worker.id, at
        run = self.store.scaled(float(job.settings.get("run_time", 0)))
        limit = self.store.scaled(job.execution_timeout_ms / 1000.0)
        job.ends_at = at + min(run, limit)
        if run > limit:
            job.settings = {**job.settings, "outcome": TIMED_OUT}
        self.busy[worker.id] = job.id

    def _finish(self, job: Job) -> None:
        outcome = job.settings.get("outcome", COMPLETED)
        self._end(job, outcome, job.ends_at if job.ends_at is not None else self.store.now())

    def _end(self, job: Job, status: str, at: float) -> None:
        if job.status == IN_PROGRESS and job.worker_id is not None:
            self.busy.pop(job.worker_id, None)
            self.free_since[job.worker_id] = at
        job.status, job.ended_at = status, at
        if status == COMPLETED:
            job.output = output_of(job.settings, job.input)
        elif status == FAILED:
            job.error = job.settings.get("error") or DEFAULT_ERROR
        elif status == TIMED_OUT:
            job.error = f"job exceeded its execution timeout of {job.execution_timeout_ms} ms"

    def _scale(self, now: float) -> None:
        """Start workers for queued jobs (up to workers.max); let idle extra workers go after idleTimeout."""
        for endpoint in self.store.endpoints.values():
            live = [worker for worker in endpoint.workers if worker.retire_at is None]
            waiting = self._queue(endpoint.id)
            usable = [worker for worker in live if worker.status_override is None and worker.id not in self.busy]
            missing = min(len(waiting) - len(usable), endpoint.workers_max - len(live))
            for _ignored in range(max(0, missing)):
                worker = self.store._new_worker(endpoint, now)
                endpoint.workers.append(worker)
                self.on_demand.add(worker.id)
            for worker in list(endpoint.workers):
                if worker.id not in self.on_demand or worker.id in self.busy or waiting:
                    continue
                idle_since = self.free_since.get(worker.id, worker.ready_at)
                extra = len([w for w in endpoint.workers if w.retire_at is None]) > endpoint.workers_min
                if extra and now >= idle_since + self.store.scaled(endpoint.idle_timeout):
                    endpoint.workers.remove(worker)
                    self.on_demand.discard(worker.id)
        # A job whose worker went away (scaled down by a PATCH) goes back to the queue, as RunPod retries it.
        for job in self.jobs.values():
            if job.status == IN_PROGRESS and not any(
                worker.id == job.worker_id for worker in self.store.endpoints.get(job.endpoint_id, _NoEndpoint).workers
            ):
                self.busy.pop(job.worker_id or "", None)
                job.status, job.worker_id, job.started_at, job.ends_at = IN_QUEUE, None, None, None
                job.retries += 1
                self.retried[job.endpoint_id] = self.retried.get(job.endpoint_id, 0) + 1


class _NoEndpoint:
    workers: list[Any] = []


def job_body(book: JobBook, job: Job) -> dict[str, Any]:
    """``/status/{job}`` (runpod-api.md section 2): ``{id, status, delayTime, executionTime, output?, error?}``."""
    body: dict[str, Any] = {
        "id": job.id,
        "status": job.status,
        "delayTime": book.delay_ms(job),
        "executionTime": book.execution_ms(job),
    }
    if job.status == COMPLETED:
        body["output"] = job.output
    if job.status in (FAILED, TIMED_OUT) and job.error is not None:
        body["error"] = job.error
    return body


def admin_view(book: JobBook, job: Job) -> dict[str, Any]:
    return {
        **job_body(book, job),
        "endpoint_id": job.endpoint_id,
        "input": job.input,
        "worker_id": job.worker_id,
        "webhook": job.webhook,
        "low_priority": job.low_priority,
        "ttl_ms": job.ttl_ms,
        "execution_timeout_ms": job.execution_timeout_ms,
        "sync": job.sync,
        "retries": job.retries,
    }

# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Log streams: ``GET /v2/pods/{id}/logs`` and ``GET /v2/serverless/{id}/workers/{workerId}/logs`` (Server-Sent
Events, docs/simulator.md "Logs"), and the admin routes that script their lines.

A pod or worker has the lines scripted for it and, for a pod, the lines its real sshd's start printed (the
``SSH host keys:`` block of RunPod's start script, listeners.py); the simulator writes no lifecycle lines of its own.
Each scripted line has an offset ``at`` in simulated seconds (scaled by ``time_scale``) from its anchor: the pod's
or worker's creation for scripts set by pod name or for every worker of an endpoint, the moment the script was set
otherwise; a line exists once its time has come. Events are ``id: <ts>`` and ``data: {"ts", "source", "line"}``;
``ts`` has microseconds and is unique per stream, so ``Last-Event-ID`` resumes exactly. The backfill honours
``source``, ``tail`` (default 100, max 5000; ignored with ``since`` or ``Last-Event-ID``), ``since`` and
``Last-Event-ID``; then the stream stays open and sends each new line as its time comes, as RunPod's does, until
the client leaves (or ``MAX_STREAM_SECONDS``). Every event is checked against the document's payload (contract.py).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from .app import ApiError, Ctx, Reply, Sim
from .store import TERMINATED, ConfigError

EVENT_STREAM = "text/event-stream"
SOURCES = ("container", "system")
DEFAULT_TAIL = 100
MAX_TAIL = 5000
# A held stream checks for new lines this often (real seconds) and ends after MAX_STREAM_SECONDS.
STREAM_TICK = 0.05
MAX_STREAM_SECONDS = 600.0
STREAM_HEADERS = {"Cache-Control": "no-cache", "Connection": "keep-alive", "X-Accel-Buffering": "no"}

TRACEBACK = (
    "Traceback (most recent call last):",
    '  File "/handler.py", line 3, in <module>',
    "    from vllm import LLM",
    "ModuleNotFoundError: No module named 'vllm'",
)
# Preset scripts (``{"preset": name, "every": seconds between lines, "repeat": n}``): what RunPod shows for the
# usual reasons a pod or worker is not ready.
PRESETS: dict[str, tuple[tuple[str, str], ...]] = {
    "image_pull": (
        ("system", "Pulling image {image}"),
        ("system", "a1b2c3d4e5f6: Pulling fs layer"),
        ("system", "a1b2c3d4e5f6: Downloading 1.2GB/20.4GB"),
        ("system", "a1b2c3d4e5f6: Downloading 9.8GB/20.4GB"),
        ("system", "a1b2c3d4e5f6: Downloading 20.4GB/20.4GB"),
        ("system", "a1b2c3d4e5f6: Extracting 20.4GB/20.4GB"),
        ("system", "a1b2c3d4e5f6: Pull complete"),
        ("system", "create container {image}"),
        ("system", "start container"),
    ),
    "crash_loop": (
        ("system", "start container"),
        ("container", "Starting server on :8000"),
        ("container", "RuntimeError: CUDA error: no kernel image is available for execution on the device"),
        ("system", "container exited with code 1, restarting"),
    ),
    "traceback": (("system", "start container"), *(("container", line) for line in TRACEBACK),
                  ("system", "container exited with code 1")),
}


@dataclass
class Script:
    lines: list[tuple[float, str, str]]  # (at, source, line) in simulated seconds
    anchor: float | None = None  # wall clock; None: the pod's or worker's creation


@dataclass
class LogBook:
    """Scripted lines by pod id, pod name, and (endpoint id, worker id or ``*``); printed container lines by pod id
    (``(wall clock, line)``, written as they happen: a pod's sshd start)."""

    pods: dict[str, Script] = field(default_factory=dict)
    pod_names: dict[str, Script] = field(default_factory=dict)
    workers: dict[tuple[str, str], Script] = field(default_factory=dict)
    printed: dict[str, list[tuple[float, str]]] = field(default_factory=dict)

    def reset(self) -> None:
        self.pods.clear()
        self.pod_names.clear()
        self.workers.clear()
        self.printed.clear()

    def print_lines(self, pod_id: str, lines: list[str]) -> None:
        """The pod's container printed ``lines`` now (the listeners' ``log_sink``)."""
        now = time.time()
        self.printed.setdefault(pod_id, []).extend((now, line) for line in lines)


def _stamp_us(microseconds: int) -> str:
    seconds, micro = divmod(int(microseconds), 1_000_000)
    return datetime.fromtimestamp(seconds, tz=UTC).replace(microsecond=micro).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _parse_time(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def events(script: Script | None, created: float, scale: float, image: str, now: float,
           printed: Iterable[tuple[float, str]] = ()) -> list[dict[str, str]]:
    """The lines of ``script`` whose time has come and the ``printed`` container lines, oldest first, each
    ``{ts, source, line}``."""
    found: list[tuple[int, int, str, str]] = []  # (microseconds, order among equals, source, line)
    if script is not None:
        anchor = created if script.anchor is None else script.anchor
        for index, (at, source, line) in enumerate(script.lines):
            # Whole microseconds, so two lines that share a time stay unique and ordered (a float epoch cannot
            # hold a one-microsecond step reliably: consecutive lines rounded to the same ``ts``).
            when_us = round((anchor + at * scale) * 1_000_000) + index
            if when_us <= now * 1_000_000:
                found.append((when_us, len(found), source, line.replace("{image}", image or "")))
    for when, line in printed:  # a block printed at once keeps its order
        found.append((round(when * 1_000_000), len(found), "container", line))
    found.sort()
    stamped, last = [], -1
    for when_us, _order, source, line in found:
        last = max(when_us, last + 1)  # each ts unique, so Last-Event-ID resumes exactly
        stamped.append({"ts": _stamp_us(last), "source": source, "line": line})
    return stamped


def parse_script(body: Any) -> list[tuple[float, str, str]]:
    """``{"lines": [{"at", "source", "line"}]}`` or ``{"preset", "every", "repeat", "start"}`` (400 otherwise)."""
    if not isinstance(body, dict):
        raise ConfigError("a log script must be a JSON object")
    unknown = set(body) - {"lines", "preset", "every", "repeat", "start", "pod_name", "anchor"}
    if unknown:
        raise ConfigError(f"unknown log script key(s): {', '.join(sorted(unknown))}")
    lines: list[tuple[float, str, str]] = []
    for entry in body.get("lines") or []:
        if not isinstance(entry, dict) or entry.get("source") not in SOURCES or not isinstance(entry.get("line"), str):
            raise ConfigError('each line must be {"at": seconds, "source": "container"|"system", "line": text}')
        at = entry.get("at", 0)
        if isinstance(at, bool) or not isinstance(at, (int, float)) or at < 0:
            raise ConfigError("a line's at must be a non-negative number of seconds")
        lines.append((float(at), entry["source"], entry["line"]))
    if body.get("preset") is not None:
        if body["preset"] not in PRESETS:
            raise ConfigError(f"unknown preset {body['preset']!r}; expected one of {', '.join(PRESETS)}")
        every, repeat, start = body.get("every", 1), body.get("repeat", 1), body.get("start", 0)
        for name, value in (("every", every), ("start", start)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise ConfigError(f"{name} must be a non-negative number of seconds")
        if isinstance(repeat, bool) or not isinstance(repeat, int) or not 1 <= repeat <= 1000:
            raise ConfigError("repeat must be an integer from 1 to 1000")
        preset = PRESETS[body["preset"]] * repeat
        lines.extend((float(start) + index * float(every), source, line) for index, (source, line) in enumerate(preset))
    if not lines:
        raise ConfigError("a log script needs lines or a preset")
    return lines


def _query(ctx: Ctx) -> tuple[str | None, int, float | None, str | None]:
    source = ctx.query.get("source")
    if source is not None and source not in SOURCES:
        raise ApiError(400, f"source must be one of {', '.join(SOURCES)}")
    raw_tail = ctx.query.get("tail", str(DEFAULT_TAIL))
    try:
        tail = int(raw_tail)
    except ValueError:
        raise ApiError(400, "tail must be an integer") from None
    if not 0 <= tail <= MAX_TAIL:
        raise ApiError(400, f"tail must be between 0 and {MAX_TAIL}")
    since = ctx.query.get("since")
    since_epoch = None
    if since is not None:
        try:
            since_epoch = _parse_time(since)
        except ValueError:
            raise ApiError(400, "since must be an RFC 3339 date-time") from None
    return source, tail, since_epoch, ctx.request.headers.get("last-event-id")


def _backfill(found: list[dict[str, str]], tail: int, since: float | None, last_id: str | None) -> list[dict[str, str]]:
    if last_id:
        return [event for event in found if event["ts"] > last_id]
    if since is not None:
        return [event for event in found if _parse_time(event["ts"]) >= since]
    return found[-tail:] if tail else []


def _render(sim: Sim, path: str, event: dict[str, str]) -> bytes:
    problems = contract_check(path, event)
    if problems:
        sim.contract_violations.extend(problems)
    return f"id: {event['ts']}\ndata: {json.dumps(event, separators=(',', ':'))}\n\n".encode()


def contract_check(path: str, event: dict[str, str]) -> list[str]:
    from . import contract

    return contract.check_log_event(path, event)


async def _stream(sim: Sim, ctx: Ctx, read: Any) -> AsyncIterator[bytes]:
    source, tail, since, last_id = _query(ctx)
    path = ctx.request.url.path

    def current() -> list[dict[str, str]]:
        return [event for event in read() if source is None or event["source"] == source]

    visible = current()
    sent = _backfill(visible, tail, since, last_id)
    # Everything visible now was sent or left out on purpose: only later lines follow.
    newest = max(visible[-1]["ts"] if visible else "", last_id or "")

    async def body() -> AsyncIterator[bytes]:
        nonlocal newest
        for event in sent:
            yield _render(sim, path, event)
        ends = time.monotonic() + MAX_STREAM_SECONDS
        while time.monotonic() < ends:  # held open: new lines as their time comes
            await asyncio.sleep(STREAM_TICK)
            for event in current():
                if event["ts"] > newest:
                    newest = event["ts"]
                    yield _render(sim, path, event)

    return body()


async def pod_logs(sim: Sim, ctx: Ctx) -> Reply:
    pod = sim.store.get_pod(ctx.params["pod_id"])
    if pod is None or pod.status == TERMINATED:
        raise ApiError(404, "pod not found")
    book: LogBook = sim.logbook
    script = book.pods.get(pod.id) or book.pod_names.get(pod.name)

    def read() -> list[dict[str, str]]:
        book.print_lines(pod.id, sim.listeners.container_output(pod.id))
        printed = book.printed.get(pod.id, [])
        return events(script, pod.created_at, sim.store.config.time_scale, pod.image, time.time(), printed)

    return Reply(200, headers=dict(STREAM_HEADERS), media_type=EVENT_STREAM, stream=await _stream(sim, ctx, read))


async def worker_logs(sim: Sim, ctx: Ctx) -> Reply:
    endpoint = sim.store.endpoints.get(ctx.params["endpoint_id"])
    if endpoint is None:
        raise ApiError(404, "endpoint not found")
    worker = next((w for w in sim.store.live_workers(endpoint) if w.id == ctx.params["worker_id"]), None)
    if worker is None:
        raise ApiError(404, "worker not found")
    book: LogBook = sim.logbook
    script = book.workers.get((endpoint.id, worker.id)) or book.workers.get((endpoint.id, "*"))

    def read() -> list[dict[str, str]]:
        return events(script, worker.created_at, sim.store.config.time_scale, worker.image or "", time.time())

    return Reply(200, headers=dict(STREAM_HEADERS), media_type=EVENT_STREAM, stream=await _stream(sim, ctx, read))


# -- admin ------------------------------------------------------------------------------------------------------
async def _script_body(ctx: Ctx) -> tuple[dict[str, Any], Script]:
    body = await ctx.json(default={})
    lines = parse_script(body)
    return body, Script(lines)


async def script_pod(sim: Sim, ctx: Ctx) -> Reply:
    """``POST /_sim/pods/{pod_id}/logs``: the pod's lines, offsets from now."""
    if sim.store.get_pod(ctx.params["pod_id"]) is None:
        raise ApiError(404, f"no pod {ctx.params['pod_id']}")
    _body, script = await _script_body(ctx)
    script.anchor = time.time()
    sim.logbook.pods[ctx.params["pod_id"]] = script
    return Reply(200, {"pod_id": ctx.params["pod_id"], "lines": len(script.lines)})


async def script_pod_name(sim: Sim, ctx: Ctx) -> Reply:
    """``POST /_sim/logs/pods``: ``{"pod_name", ...}``, the lines of every pod with that name, offsets from its
    creation (so a test scripts a pod its playbook has not created yet)."""
    body, script = await _script_body(ctx)
    name = body.get("pod_name")
    if not isinstance(name, str) or not name:
        raise ConfigError("pod_name must be a pod name")
    sim.logbook.pod_names[name] = script
    return Reply(200, {"pod_name": name, "lines": len(script.lines)})


async def script_worker(sim: Sim, ctx: Ctx) -> Reply:
    """``POST /_sim/endpoints/{endpoint_id}/workers/{worker_id}/logs``; worker ``*``: every worker of the endpoint,
    offsets from each worker's creation; a worker id: offsets from now."""
    endpoint_id, worker_id = ctx.params["endpoint_id"], ctx.params["worker_id"]
    if endpoint_id not in sim.store.endpoints:
        raise ApiError(404, f"no endpoint {endpoint_id}")
    _body, script = await _script_body(ctx)
    if worker_id != "*":
        script.anchor = time.time()
    sim.logbook.workers[(endpoint_id, worker_id)] = script
    return Reply(200, {"endpoint_id": endpoint_id, "worker_id": worker_id, "lines": len(script.lines)})


def register(sim: Sim) -> None:
    from .admin import _guard

    sim.logbook = LogBook()
    sim.listeners.log_sink = sim.logbook.print_lines
    sim.route("GET", "/v2/pods/{pod_id}/logs", pod_logs)
    sim.route("GET", "/v2/serverless/{endpoint_id}/workers/{worker_id}/logs", worker_logs)
    for path, handler in (
        ("/_sim/pods/{pod_id}/logs", script_pod),
        ("/_sim/logs/pods", script_pod_name),
        ("/_sim/endpoints/{endpoint_id}/workers/{worker_id}/logs", script_worker),
    ):
        sim.route("POST", path, _guard(handler), auth=False)

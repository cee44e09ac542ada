# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The ``runpod.cloud.watch`` event source: RunPod pods, endpoints and clusters as Event-Driven Ansible events.

I/O only (reads, SSH probes, backoff, the queue); what changed between two reads is decided by the pure watchers
in plugins/module_utils/_vocab/watch_events.py. docs/eda.md is the user guide and the event catalogue.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from datetime import UTC, datetime
from typing import Any

DOCUMENTATION = r"""
---
short_description: Watch RunPod pods, serverless endpoints and Instant Clusters and send an event for each change
description:
  - An ansible-rulebook event source plugin that reads the account's pods, serverless endpoints and Instant
    Clusters every O(interval) and sends one event per change.
  - 'Each event is one dict under C(runpod): C(kind) (C(pod), C(endpoint) or C(cluster)), C(id), C(name), C(event),
    C(from), C(to), C(runtime_status), C(reason), C(at) and C(resource), plus keys of its own for some events.
    The events are C(seen) (with O(emit_initial)), C(created), C(status_changed), C(gone), C(ready) (a pod
    answers with an SSH banner on its public port), C(workers_unhealthy), C(rollout_started),
    C(rollout_finished), C(member_status_changed), C(pod_lease_expired) and C(pod_idle); the collection''s
    C(docs/eda.md) describes each.'
  - The status is the derived runtime status M(runpod.cloud.pod_info) reports, and C(resource) is the same
    description of the resource that the C(_info) modules return.
  - One list read per kind and interval (every page of a paged list; never one read per pod or cluster).
    Endpoints add one worker read per watched endpoint, because the endpoint list says nothing about workers;
    O(name_prefix) limits them.
  - HTTP 429 and 5xx answers and network errors back off (up to 5 minutes, at least the C(Retry-After)) and keep
    watching, with one line on stderr and no event; a resource is reported C(gone) only when two successful
    reads in a row no longer list it. HTTP 401 and 403 end the source with an error.
  - C(pod_lease_expired) is sent once per pod and deadline when a pod's lease (M(runpod.cloud.pod)'s O(stop_after)
    and O(terminate_after), read from the pod's environment) ran out, with C(action) (C(stop) or C(terminate)),
    C(rule) (the option) and C(deadline). C(pod_idle) is sent once per idle stretch when every GPU of a running
    pod with O(idle_stop_after) read below its O(idle_below) in every read for that long, with C(rule),
    C(idle_since) and C(deadline). A pod without a lease never causes either.
  - The API key is never part of an event or a log line.
  - The source imports the collection's Python code, so the collection's Python requirements (C(httpx),
    C(pydantic)) must be installed where ansible-rulebook runs.
version_added: 0.2.0
author:
  - runpod.cloud contributors (@runpod-cloud)
requirements:
  - httpx >= 0.27.0
  - pydantic >= 2.6.0
options:
  api_key:
    description:
      - RunPod API key. Falls back to the E(RUNPOD_API_KEY) environment variable of ansible-rulebook, which is
        the better place for it; the source fails at start when neither is set.
      - This value is a secret (like a module option with C(no_log)). The source never puts it into an event or
        a log line (it is redacted from every string of an event), but a rulebook file that holds it is easily
        shared; keep it in E(RUNPOD_API_KEY) in ansible-rulebook's environment rather than in the rulebook.
    type: str
    required: false
  api_url:
    description:
      - Base URL of the RunPod REST v2 API. Falls back to E(RUNPOD_API_URL), then V(https://api.runpod.io/v2).
    type: str
    required: false
  serverless_url:
    description:
      - Base URL of the serverless runtime API (used for the endpoint URLs in C(resource)). Falls back to
        E(RUNPOD_SERVERLESS_URL), then V(https://api.runpod.ai/v2).
    type: str
    required: false
  interval:
    description:
      - Time between two reads, as a duration (V(30s), V(2m), V(1h30m)) or a number of seconds. At least 1 second.
    type: raw
    required: false
    default: 30s
  kinds:
    description:
      - What to watch. A comma-separated string (V(pods,endpoints)) is accepted too.
    type: list
    elements: str
    choices: [pods, endpoints, clusters]
    required: false
    default: [pods]
  name_prefix:
    description:
      - Watch only resources whose name starts with this (for clusters the cluster's name; its members follow it).
      - The empty string watches every resource of the account.
    type: str
    required: false
    default: ""
  emit_initial:
    description:
      - Send one C(seen) event per resource found by the first read. Without it the first read only learns what
        exists.
    type: bool
    required: false
    default: false
  run_time:
    description:
      - End the source (and so the rulebook run) after this long, as a duration (V(10m)) or a number of seconds.
        Empty or V(0) watches until stopped.
    type: raw
    required: false
    default: ""
notes:
  - ansible-rulebook runs the source with its own Python; it finds the collection in the collections directory
    the source is installed in, or in E(ANSIBLE_COLLECTIONS_PATH).
  - Options are checked when the source starts; an unknown option, a bad duration or an unknown kind ends it with
    an error that names the option.
seealso:
  - module: runpod.cloud.pod_info
  - module: runpod.cloud.endpoint_info
  - module: runpod.cloud.cluster_info
"""

EXAMPLES = r"""
# A rulebook: start again a pod named train-* that stopped out of band. The API key comes from RUNPOD_API_KEY
# in ansible-rulebook's environment.
- name: Heal stopped training pods
  hosts: localhost
  sources:
    - runpod.cloud.watch:
        interval: 30s
        kinds: [pods]
        name_prefix: train-
  rules:
    - name: A pod stopped
      condition: event.runpod.event == "status_changed" and event.runpod.to == "stopped"
      action:
        run_playbook:
          name: runpod.cloud.eda_start_pod

# Pods, endpoints and clusters; one event per resource at start, and stop after an hour.
- name: Print every change on the account
  hosts: localhost
  sources:
    - runpod.cloud.watch:
        interval: 1m
        kinds: [pods, endpoints, clusters]
        emit_initial: true
        run_time: 1h
  rules:
    - name: Print it
      condition: event.runpod is defined
      action:
        print_event:
          pretty: true
"""

KINDS = ("pods", "endpoints", "clusters")
OPTIONS = ("api_key", "api_url", "serverless_url", "interval", "kinds", "name_prefix", "emit_initial", "run_time")
MIN_INTERVAL = 1.0
MAX_BACKOFF = 300.0
# An answer that no wait makes better: the key is wrong or may not read the account.
FATAL_CODES = ("unauthorized", "forbidden")
_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0", "")


def _collections_on_path(here: str = "") -> None:
    """Make ``ansible_collections.runpod.cloud`` importable: ansible-rulebook runs this file with ``runpy`` and
    does not set up Ansible's collection loader, so add the collections directory this file sits in (or one of
    ANSIBLE_COLLECTIONS_PATH) to ``sys.path`` when it is not importable already."""
    try:
        import ansible_collections.runpod.cloud.plugins.module_utils._engine  # noqa: F401  pylint: disable=unused-import
        return
    except ImportError:
        pass
    candidates = []
    parts = os.path.abspath(here or __file__).split(os.sep)
    if len(parts) > 8 and parts[-8:-4] == ["ansible_collections", "runpod", "cloud", "extensions"]:
        candidates.append(os.sep.join(parts[:-8]))
    for entry in os.environ.get("ANSIBLE_COLLECTIONS_PATH", os.environ.get("ANSIBLE_COLLECTIONS_PATHS", "")).split(
            os.pathsep):
        candidates += [entry, os.path.dirname(entry)] if entry else []
    candidates += [os.path.expanduser("~/.ansible/collections"), "/usr/share/ansible/collections"]
    for root in candidates:
        if os.path.isdir(os.path.join(root, "ansible_collections", "runpod", "cloud")) and root not in sys.path:
            sys.path.insert(0, root)
            return


_collections_on_path()

# pylint: disable=wrong-import-position
from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError  # noqa: E402
from ansible_collections.runpod.cloud.plugins.module_utils._backend.clusters import Clusters  # noqa: E402
from ansible_collections.runpod.cloud.plugins.module_utils._backend.connection import (  # noqa: E402
    Gpus,
    make_backend,
    resolve_options,
    transport_warnings,
)
from ansible_collections.runpod.cloud.plugins.module_utils._backend.endpoints import Endpoints  # noqa: E402
from ansible_collections.runpod.cloud.plugins.module_utils._backend.pods import Pods  # noqa: E402
from ansible_collections.runpod.cloud.plugins.module_utils._backend.templates import Templates  # noqa: E402
from ansible_collections.runpod.cloud.plugins.module_utils._engine import ssh_probe as _ssh_probe  # noqa: E402
from ansible_collections.runpod.cloud.plugins.module_utils._vocab import duration as _duration  # noqa: E402
from ansible_collections.runpod.cloud.plugins.module_utils._vocab import podstate as _podstate  # noqa: E402
from ansible_collections.runpod.cloud.plugins.module_utils._vocab import watch_events as _watch  # noqa: E402


class WatchError(Exception):
    """The source cannot go on (a refused key, bad options); the message never contains the key."""


class _RateLimitedError(Exception):
    """A 429: the other reads of this interval would get one too."""


def _flag(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE or text in _FALSE:
        return text in _TRUE
    raise WatchError(f"runpod.cloud.watch: {name} must be true or false, got {value!r}")


def _seconds(name: str, value: Any) -> float:
    try:
        return _duration.parse(value)
    except _duration.DurationError as error:
        raise WatchError(f"runpod.cloud.watch: {name}: {error}") from None


def configure(args: dict, environ: Any = None) -> dict:
    """The source's settings from its rulebook arguments (and the RUNPOD_* environment); WatchError when wrong."""
    environ = os.environ if environ is None else environ
    unknown = sorted(str(key) for key in args if key not in OPTIONS and not str(key).startswith("eda_"))
    if unknown:
        raise WatchError(f"runpod.cloud.watch: unknown option(s) {', '.join(unknown)}; known: {', '.join(OPTIONS)}")
    api_key = args.get("api_key") or environ.get("RUNPOD_API_KEY") or ""
    if not api_key:
        raise WatchError("runpod.cloud.watch needs an API key: set RUNPOD_API_KEY in ansible-rulebook's environment "
                         "(or the api_key option)")
    interval = _seconds("interval", args.get("interval", "30s"))
    if interval < MIN_INTERVAL:
        raise WatchError(f"runpod.cloud.watch: interval must be at least {MIN_INTERVAL:g}s, got {args['interval']!r}")
    kinds = args.get("kinds", ["pods"])
    kinds = kinds.split(",") if isinstance(kinds, str) else list(kinds or [])
    kinds = [str(kind).strip().lower() for kind in kinds if str(kind).strip()]
    wrong = [kind for kind in kinds if kind not in KINDS]
    if wrong or not kinds:
        raise WatchError(f"runpod.cloud.watch: kinds must be a list of {', '.join(KINDS)}, got {args.get('kinds')!r}")
    run_time = args.get("run_time")
    return {
        "api_key": api_key,
        "api_url": args.get("api_url") or environ.get("RUNPOD_API_URL"),
        "serverless_url": args.get("serverless_url") or environ.get("RUNPOD_SERVERLESS_URL"),
        "interval": interval,
        "kinds": [kind for kind in KINDS if kind in kinds],
        "name_prefix": str(args.get("name_prefix") or ""),
        "emit_initial": _flag("emit_initial", args.get("emit_initial", False)),
        "run_time": None if run_time in (None, "", 0, "0") else _seconds("run_time", run_time),
    }


def utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _error_text(error: RunPodError) -> str:
    status = f", HTTP {error.status}" if error.status is not None else ""
    return f"{error.code}{status}: {error.message}"


class WatchSource:
    """One watch: ``poll_once`` reads every kind once and returns ``(events, seconds until the next read)``;
    ``run`` loops it into the queue. ``backend`` is the collection's backend (``make_backend``); ``probe``,
    ``sleep``, ``now``, ``wall``, ``epoch`` (the idle history's clock) and ``warn`` are injectable for tests."""

    def __init__(self, config: dict, backend: Any, *, probe: Any = None, sleep: Any = None, now: Any = None,
                 wall: Any = None, warn: Any = None, epoch: Any = None) -> None:
        self.config = config
        self.backend = backend
        self.serverless_url = backend.serverless_url
        self.watchers = {kind: _watch.WATCHERS[kind](config["emit_initial"]) for kind in config["kinds"]}
        self.failures = 0
        self._probe = probe or self._probe_ssh
        self._sleep = sleep or asyncio.sleep
        self._now = now or time.monotonic
        self._wall = wall or utc_now
        self._warn = warn or (lambda line: print(line, file=sys.stderr, flush=True))
        self._epoch = epoch or time.time
        self._errors: list = []
        self.idle_since: dict[str, float | None] = {}  # pod id -> when its GPUs last went idle (every read since: idle)
        self.announced: set = set()  # (pod id, action, deadline) already sent; idle ones as (pod id, "idle", since)

    @classmethod
    def from_args(cls, args: dict, **kwargs: Any) -> WatchSource:
        config = configure(args)
        options = {key: config[key] for key in ("api_key", "api_url", "serverless_url")}
        try:
            for warning in transport_warnings(resolve_options(options)):
                print(f"runpod.cloud.watch: {warning}", file=sys.stderr, flush=True)
            backend = make_backend(options, uses=(Pods, Gpus, Clusters, Templates, Endpoints),
                                   transport=kwargs.pop("transport", None), clock=kwargs.pop("clock", None))
        except (ValueError, RuntimeError) as error:
            raise WatchError(f"runpod.cloud.watch: {error}") from None
        return cls(config, backend, **kwargs)

    def close(self) -> None:
        self.backend.close()

    def say(self, text: str) -> None:
        self._warn(self.backend.client.redact(f"runpod.cloud.watch: {text}"))

    def _scrub(self, value: Any) -> Any:
        """``value`` with the key redacted from every string (an endpoint's env may hold it)."""
        if isinstance(value, str):
            return self.backend.client.redact(value)
        if isinstance(value, dict):
            return {key: self._scrub(item) for key, item in value.items()}
        if isinstance(value, list):
            return [self._scrub(item) for item in value]
        return value

    def _wanted(self, name: Any) -> bool:
        return str(name or "").startswith(self.config["name_prefix"])

    async def _read(self, what: str, function: Any, *args: Any, missing_ok: bool = False, **kwargs: Any) -> Any:
        """One read in a worker thread; None when it failed (remembered for the backoff)."""
        try:
            return await asyncio.to_thread(function, *args, attempts=1, **kwargs)
        except RunPodError as error:
            if error.code in FATAL_CODES:
                raise WatchError(
                    f"runpod.cloud.watch: RunPod refused the API key reading {what} ({_error_text(error)}); check "
                    "RUNPOD_API_KEY (or api_key) and its permissions. The source stops."
                ) from None
            if missing_ok and error.code == "not_found":
                return None
            self._errors.append((what, error))
            if error.code == "rate_limited":
                raise _RateLimitedError() from None
            return None

    async def _read_all(self) -> tuple:
        kinds = self.config["kinds"]
        clusters = pods = endpoints = None
        workers: dict = {}
        try:
            if "clusters" in kinds:
                clusters = await self._read("clusters", self.backend.clusters.list)
            if "pods" in kinds or "clusters" in kinds:
                # One pod read serves both kinds: members come with ?includeClusterPods=true.
                select = None if "clusters" in kinds else (lambda _pod_id, name: self._wanted(name))
                pods = await self._read("pods", self.backend.pods.list, include_cluster_pods="clusters" in kinds,
                                        select=select)
            if "endpoints" in kinds:
                endpoints = await self._read("endpoints", self.backend.endpoints.list)
                for endpoint in [item for item in endpoints or [] if self._wanted(item.name)]:
                    workers[endpoint.id] = await self._read(f"the workers of endpoint {endpoint.id}",
                                                            self.backend.endpoints.workers, endpoint.id,
                                                            missing_ok=True)
        except _RateLimitedError:
            pass
        return clusters, pods, endpoints, workers

    def _feed(self, kind: str, records: Any, at: str) -> list:
        watcher = self.watchers.get(kind)
        if watcher is None:
            return []
        if records is None:
            watcher.read_failed()
            return []
        return watcher.observe(records, at)

    async def poll_once(self) -> tuple[list, float]:
        """Read every watched kind once; the events of this interval and the delay before the next one."""
        self._errors = []
        at = self._wall()
        clusters, pods, endpoints, workers = await self._read_all()
        events = []
        standalone = None if pods is None else [
            _watch.pod_record(pod) for pod in pods if pod.cluster_id is None and self._wanted(pod.name)]
        events += self._feed("pods", standalone, at)
        events += self._lease_events(standalone or [], at) if "pods" in self.watchers else []
        if endpoints is not None:
            endpoints = [_watch.endpoint_record(item, self.serverless_url, workers.get(item.id))
                         for item in endpoints if self._wanted(item.name)]
        events += self._feed("endpoints", endpoints, at)
        if clusters is not None and pods is not None:
            members: dict = {}
            for pod in pods:
                members.setdefault(pod.cluster_id, []).append(pod)
            clusters = [_watch.cluster_record(item, members.get(item.id, [])) for item in clusters
                        if self._wanted(item.name)]
        events += self._feed("clusters", None if pods is None else clusters, at)
        events += await self._probe_ready()
        return [self._scrub(item) for item in events], self._next_delay()

    def _lease_events(self, records: list, at: str) -> list:
        """``pod_lease_expired`` and ``pod_idle`` of one read: only pods with a lease, each deadline sent once."""
        now, events = self._epoch(), []
        for record in records:
            pod, pod_id = record["resource"], record["id"]
            lease = pod.get("lease")
            if not lease:
                self.idle_since.pop(pod_id, None)
                continue
            if lease["expired"] and (pod_id, lease["action"], lease["deadline"]) not in self.announced:
                self.announced.add((pod_id, lease["action"], lease["deadline"]))
                events.append(_watch.event("pod", record, "pod_lease_expired", at, action=lease["action"],
                                           rule=f"{lease['action']}_after", deadline=lease["deadline"]))
            running = record["runtime_status"] == _podstate.RUNNING
            due, since = _podstate.idle_due(lease, pod.get("utilization") if running else None,
                                            self.idle_since.get(pod_id), now)
            self.idle_since[pod_id] = since
            if due and (pod_id, "idle", since) not in self.announced:
                self.announced.add((pod_id, "idle", since))
                events.append(_watch.event("pod", record, "pod_idle", at, action="stop", rule="idle_stop_after",
                                           idle_since=_podstate.utc_text(since), idle_below=lease["idle_below"],
                                           deadline=_podstate.utc_text(since + lease["idle_stop_after"])))
        return events

    async def _probe_ready(self) -> list:
        watcher = self.watchers.get("pods")
        targets = watcher.awaiting_ssh() if watcher is not None else {}
        if not targets:
            return []
        results = await self._probe(targets)
        at = self._wall()
        events = []
        for pod_id in sorted(results):
            if results[pod_id].ok:
                events += watcher.ssh_answered(pod_id, at)
        return events

    async def _probe_ssh(self, targets: dict) -> dict:
        timeout = min(5.0, self.config["interval"] / 2)
        return await asyncio.to_thread(_ssh_probe.probe_many, targets, timeout, timeout)

    def _next_delay(self) -> float:
        interval = self.config["interval"]
        if not self._errors:
            self.failures = 0
            return interval
        self.failures += 1
        retry_after = max(error.retry_after or 0.0 for _what, error in self._errors)
        delay = max(min(interval * 2 ** self.failures, max(MAX_BACKOFF, interval)), retry_after)
        failed = "; ".join(f"reading {what} failed ({_error_text(error)})" for what, error in self._errors)
        self.say(f"{failed}; no events from it, next read in {_duration.format_duration(delay)}")
        return delay

    async def run(self, queue: Any) -> None:
        """Poll until cancelled (or for ``run_time``), putting every event on ``queue``."""
        deadline = None if self.config["run_time"] is None else self._now() + self.config["run_time"]
        while True:
            events, delay = await self.poll_once()
            for item in events:
                await queue.put(item)
            if deadline is not None:
                left = deadline - self._now()
                if left <= delay:
                    if left > 0:
                        await self._sleep(left)
                    return
            await self._sleep(delay)


async def main(queue: Any, args: dict) -> None:
    """ansible-rulebook's entry point: watch until cancelled (or for ``run_time``)."""
    source = WatchSource.from_args(args)
    try:
        await source.run(queue)
    finally:
        source.close()


if __name__ == "__main__":
    # ``python watch.py``: print the events of the account in RUNPOD_API_KEY until interrupted.

    class _PrintQueue:
        async def put(self, item: Any) -> None:
            print(item)

    asyncio.run(main(_PrintQueue(), {"emit_initial": True, "kinds": list(KINDS)}))

# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""What changed between two reads of the account, as Event-Driven Ansible events (pure Python, no I/O), for the
``runpod.cloud.watch`` event source. Records are built with the ``_info`` modules' ``describe_*``, so an event says
what ``pod_info`` would; docs/eda.md is the event catalogue."""

from __future__ import annotations

from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._vocab import podstate as _podstate
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.cluster_fields import (
    describe_cluster,
    describe_member,
)
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.endpoint_fields import (
    WORKER_STATES,
    describe_endpoint,
)
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import describe_pod

# Absence is believed only after this many successful reads in a row without the resource, as the wait engine
# counts misses (``outcome.MissCounter``, gone_limit=2); a failed read in between starts the count again.
GONE_AFTER = 2


def event(kind: str, record: dict, name: str, at: str, **extra: Any) -> dict:
    """One event: ``{"runpod": {kind, id, name, event, from, to, runtime_status, reason, at, ..., resource}}``."""
    body = {"kind": kind, "id": record["id"], "name": record.get("name"), "event": name,
            "from": extra.pop("from_", None), "to": extra.pop("to", None),
            "runtime_status": record.get("runtime_status"), "reason": record.get("reason"), "at": at}
    return {"runpod": {**body, **extra, "resource": record.get("resource")}}


def pod_record(pod: Any) -> dict:
    """A pod as the watcher tracks it: ``describe_pod`` (the pod_info shape) and its derived status."""
    described = describe_pod(pod) or {}
    return {"id": pod.id, "name": pod.name, "runtime_status": described.get("runtime_status"),
            "reason": described.get("runtime_status_reason"), "resource": described}


def worker_facts(summary: Any) -> dict | None:
    """Counts of a ``WorkerSummary`` plus ``stale`` (workers on an older release) and ``serving`` (workers on the
    current release that are idle or running); None when the worker list was not read."""
    if summary is None:
        return None
    facts = {key: int(getattr(summary, key, 0) or 0) for key in WORKER_STATES}
    workers = list(getattr(summary, "workers", None) or [])
    facts["total"] = len(workers) if workers else int(getattr(summary, "total", 0) or 0)
    facts["stale"] = sum(1 for worker in workers if worker.is_stale)
    facts["serving"] = sum(1 for worker in workers
                           if not worker.is_stale and (worker.status or "").upper() in ("IDLE", "RUNNING"))
    return facts


def endpoint_status(workers: dict) -> tuple[str, str | None]:
    """``(status, reason)`` of an endpoint from its ``worker_facts``: ready as the endpoint wait judges it, else
    unhealthy, initializing (reason ``rollout`` while old workers remain) or no_workers (scaled to zero)."""
    if workers["serving"] > 0:
        return "ready", None
    if workers["unhealthy"] > 0:
        return "unhealthy", None
    if workers["total"] > 0:
        return "initializing", ("rollout" if workers["stale"] else None)
    return "no_workers", None


def endpoint_record(endpoint: Any, serverless_url: str, summary: Any = None) -> dict:
    """An endpoint with its workers (``summary``: the worker list read, None when that read failed)."""
    workers = worker_facts(summary)
    status, reason = endpoint_status(workers) if workers is not None else (None, None)
    return {"id": endpoint.id, "name": endpoint.name, "runtime_status": status, "reason": reason, "workers": workers,
            "version": getattr(summary, "endpoint_version", None),
            "resource": describe_endpoint(endpoint, serverless_url)}


def cluster_status(members: dict) -> str:
    """A cluster's status from its members' derived statuses: running, initializing, degraded, stopped or terminated."""
    statuses = [member["runtime_status"] for member in members.values()]
    if statuses and all(status == _podstate.RUNNING for status in statuses):
        return "running"
    if statuses and all(status == _podstate.TERMINATED for status in statuses):
        return "terminated"
    down = [status for status in statuses if _podstate.known_down(status)]
    if statuses and len(down) == len(statuses):
        return "stopped"
    return "degraded" if down else "initializing"


def cluster_record(cluster: Any, members: list) -> dict:
    """A cluster and its members (the pods of one ``GET /pods?includeClusterPods=true`` whose cluster it is)."""
    described = {pod.id: describe_member(pod) for pod in members}
    tracked = {pod_id: {"id": pod_id, "name": member["name"], "rank": member["rank"],
                        "runtime_status": member["runtime_status"], "reason": member["runtime_status_reason"]}
               for pod_id, member in described.items()}
    resource = describe_cluster(cluster) or {}
    resource["members"] = sorted(described.values(), key=lambda m: (m["rank"] is None, m["rank"] or 0, m["id"]))
    return {"id": cluster.id, "name": cluster.name, "runtime_status": cluster_status(tracked), "reason": None,
            "members": tracked, "resource": resource}


class Watcher:
    """Tracks one kind across reads; ``observe`` returns the events of one successful read. The first read only
    learns what exists (``seen`` events with ``emit_initial``); later reads report ``created``, ``status_changed``
    and, after ``GONE_AFTER`` successful reads in a row without it, ``gone``."""

    kind = ""

    def __init__(self, emit_initial: bool = False) -> None:
        self.emit_initial = emit_initial
        self.known: dict[str, dict] = {}
        self.misses: dict[str, int] = {}
        self.primed = False

    def read_failed(self) -> None:
        """A read of this kind failed: nothing is believed absent from it, and the miss run starts over."""
        self.misses.clear()

    def observe(self, records: list, at: str) -> list:
        current = {record["id"]: record for record in records}
        if not self.primed:
            self.primed = True
            self.known = dict(current)
            return [self.event(record, "seen", at) for record in records] if self.emit_initial else []
        events = []
        for resource_id, record in current.items():
            self.misses.pop(resource_id, None)
            old = self.known.get(resource_id)
            if old is None:
                events.append(self.event(record, "created", at))
                events.extend(self.appeared(record, at))
            else:
                record = self.merge(old, record)
                if old.get("runtime_status") != record.get("runtime_status"):
                    events.append(self.event(record, "status_changed", at, from_=old.get("runtime_status"),
                                             to=record.get("runtime_status")))
                events.extend(self.changed(old, record, at))
            self.known[resource_id] = record
        for resource_id in [key for key in self.known if key not in current]:
            self.misses[resource_id] = self.misses.get(resource_id, 0) + 1
            if self.misses[resource_id] >= GONE_AFTER:
                old = self.known.pop(resource_id)
                del self.misses[resource_id]
                self.forget(resource_id)
                events.append(self.event(old, "gone", at, from_=old.get("runtime_status")))
        return events

    def event(self, record: dict, name: str, at: str, **extra: Any) -> dict:
        return event(self.kind, record, name, at, **extra)

    # Hooks of the kinds.
    def merge(self, old: dict, new: dict) -> dict:
        return new

    def appeared(self, record: dict, at: str) -> list:
        return []

    def changed(self, old: dict, new: dict, at: str) -> list:
        """The kind's own events of a resource seen again (after its ``status_changed``)."""
        return []

    def forget(self, resource_id: str) -> None:
        """A resource is gone (hook)."""


class PodWatcher(Watcher):
    """Pods; a pod that turns running waits in ``awaiting_ssh`` until ``ssh_answered`` reports its banner."""

    kind = "pod"

    def __init__(self, emit_initial: bool = False) -> None:
        super().__init__(emit_initial)
        self.awaiting: set[str] = set()

    def appeared(self, record, at):
        if record["runtime_status"] == _podstate.RUNNING:
            self.awaiting.add(record["id"])
        return []

    def changed(self, old, new, at):
        if new["runtime_status"] != _podstate.RUNNING:
            self.awaiting.discard(new["id"])
        elif old["runtime_status"] != _podstate.RUNNING:
            self.awaiting.add(new["id"])
        return []

    def forget(self, resource_id):
        self.awaiting.discard(resource_id)

    def awaiting_ssh(self) -> dict:
        """``{pod id: (host, port)}``: pods that just turned running, not yet proven, with a public SSH address."""
        found = {pod_id: self.known.get(pod_id, {}).get("resource", {}).get("ssh") for pod_id in sorted(self.awaiting)}
        return {pod_id: (ssh["host"], ssh["port"]) for pod_id, ssh in found.items() if ssh}

    def ssh_answered(self, pod_id: str, at: str) -> list:
        """The ``ready`` event of a pod whose SSH banner answered (once; nothing for a pod no longer awaited)."""
        record = self.known.get(pod_id)
        if pod_id not in self.awaiting or record is None:
            return []
        self.awaiting.discard(pod_id)
        return [self.event(record, "ready", at, ssh=dict(record["resource"]["ssh"]))]


class EndpointWatcher(Watcher):
    """Endpoints with their workers: ``workers_unhealthy`` when the unhealthy count goes above 0,
    ``rollout_started``/``rollout_finished`` when workers on an older release appear/are all replaced."""

    kind = "endpoint"

    def merge(self, old, new):
        if new["workers"] is None:  # the worker read failed: keep what the last one said, report nothing
            return {**new, **{key: old[key] for key in ("workers", "version", "runtime_status", "reason")}}
        return new

    def appeared(self, record, at):
        workers = record["workers"]
        if workers and workers["unhealthy"] > 0:
            return [self.event(record, "workers_unhealthy", at, from_=0, to=workers["unhealthy"], workers=workers)]
        return []

    def changed(self, old, new, at):
        events: list = []
        before, after = old["workers"], new["workers"]
        if before is None or after is None:
            return events
        if before["unhealthy"] == 0 < after["unhealthy"]:
            events.append(self.event(new, "workers_unhealthy", at, from_=0, to=after["unhealthy"], workers=after))
        if before["stale"] == 0 < after["stale"]:
            events.append(self.event(new, "rollout_started", at, version=new["version"], workers=after))
        elif before["stale"] > 0 == after["stale"]:
            events.append(self.event(new, "rollout_finished", at, version=new["version"], workers=after))
        return events


class ClusterWatcher(Watcher):
    """Clusters and their members: ``member_status_changed`` per member whose derived status changed (``to`` is
    ``gone`` once a member is missing from ``GONE_AFTER`` successful reads in a row)."""

    kind = "cluster"

    def __init__(self, emit_initial: bool = False) -> None:
        super().__init__(emit_initial)
        self.member_misses: dict[tuple, int] = {}

    def read_failed(self):
        super().read_failed()
        self.member_misses.clear()

    def merge(self, old, new):
        members = dict(new["members"])
        for member_id, member in old["members"].items():
            key = (new["id"], member_id)
            if member_id in members:
                self.member_misses.pop(key, None)
                continue
            if member["runtime_status"] == "gone":
                continue
            self.member_misses[key] = self.member_misses.get(key, 0) + 1
            if self.member_misses[key] >= GONE_AFTER:
                del self.member_misses[key]
                members[member_id] = {**member, "runtime_status": "gone", "reason": None}
            else:
                members[member_id] = member
        live = {key: member for key, member in members.items() if member["runtime_status"] != "gone"}
        return {**new, "members": members, "runtime_status": cluster_status(live)}

    def changed(self, old, new, at):
        events: list = []
        for member_id, member in sorted(new["members"].items()):
            before = old["members"].get(member_id)
            was = before["runtime_status"] if before else None
            if was != member["runtime_status"]:
                events.append(self.event(new, "member_status_changed", at, from_=was, to=member["runtime_status"],
                                         member=dict(member)))
        new["members"] = {key: member for key, member in new["members"].items() if member["runtime_status"] != "gone"}
        return events

    def forget(self, resource_id):
        for key in [key for key in self.member_misses if key[0] == resource_id]:
            del self.member_misses[key]


WATCHERS = {"pods": PodWatcher, "endpoints": EndpointWatcher, "clusters": ClusterWatcher}

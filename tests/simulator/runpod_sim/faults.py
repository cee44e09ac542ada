# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Scripted faults, the optional per-minute rate limit and the request log."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import re
import time
from dataclasses import dataclass, field
from typing import Any

from .store import ConfigError

# kind -> (phase, parameters it accepts). "pre" faults answer instead of the handler, "post" faults alter its reply.
FAULT_KINDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "status": ("pre", ("status", "detail", "retry_after", "body")),
    "delay": ("pre", ("seconds",)),
    # A barrier: each matching request waits until `parties` of them are waiting (or `timeout` real seconds pass),
    # then all go on together, so "these requests overlap" holds however slowly the clients reach them.
    "hold": ("pre", ("parties", "timeout")),
    "stock_out": ("pre", ()),
    "malformed": ("post", ()),
    "null_entry": ("post", ()),
    "empty_list": ("post", ()),
    "error_after_create": ("post", ("status",)),
    "health_sequence": ("pre", ("endpoint_id", "sequence")),
}
_COMMON_KEYS = {"kind", "route", "method", "count", "duration"}
_METHODS = {"*", "GET", "POST", "PATCH", "PUT", "DELETE", "HEAD", "OPTIONS"}


@dataclass
class FaultRule:
    id: int
    kind: str
    route: str
    method: str
    pattern: re.Pattern[str]
    params: dict[str, Any]
    remaining: int | None
    expires_at: float | None
    hits: int = 0
    waiting: int = 0
    gate: asyncio.Event | None = None

    async def hold(self) -> None:
        """A ``hold`` rule: wait here until ``parties`` requests are held (or ``timeout`` seconds pass)."""
        if self.gate is None:
            self.gate = asyncio.Event()
        self.waiting += 1
        if self.waiting >= int(self.params["parties"]):
            self.gate.set()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.gate.wait(), float(self.params.get("timeout", 60)))

    @property
    def phase(self) -> str:
        return FAULT_KINDS[self.kind][0]

    def active(self, now: float) -> bool:
        if self.remaining is not None and self.remaining <= 0:
            return False
        return self.expires_at is None or now < self.expires_at

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "route": self.route,
            "method": self.method,
            "remaining": self.remaining,
            "expires_in": None if self.expires_at is None else max(0.0, self.expires_at - time.monotonic()),
            "hits": self.hits,
            **({"waiting": self.waiting} if self.kind == "hold" else {}),
            **self.params,
        }

    def release(self) -> None:
        """Let every request a ``hold`` rule holds go on (the rule is being removed)."""
        if self.gate is not None:
            self.gate.set()


class FaultBook:
    def __init__(self) -> None:
        self.rules: list[FaultRule] = []
        self._ids = itertools.count(1)

    def clear(self) -> None:
        for rule in self.rules:
            rule.release()
        self.rules.clear()

    def add(self, spec: Any) -> FaultRule:
        """Validate an admin fault spec; raise ConfigError with a message the admin API returns as 400."""
        if not isinstance(spec, dict):
            raise ConfigError("a fault must be a JSON object")
        kind = spec.get("kind")
        if kind not in FAULT_KINDS:
            raise ConfigError(f"unknown fault kind {kind!r}; expected one of {', '.join(sorted(FAULT_KINDS))}")
        allowed = _COMMON_KEYS | set(FAULT_KINDS[kind][1])
        unknown = sorted(set(spec) - allowed)
        if unknown:
            raise ConfigError(f"unknown key(s) for a {kind} fault: {', '.join(unknown)}")
        route = spec.get("route", ".*" if kind == "health_sequence" else None)
        if not isinstance(route, str) or not route:
            raise ConfigError("route is required: a regular expression matched against the whole request path")
        try:
            pattern = re.compile(route)
        except re.error as exc:
            raise ConfigError(f"bad route pattern {route!r}: {exc}") from None
        method = str(spec.get("method", "*")).upper()
        if method not in _METHODS:
            raise ConfigError(f"bad method {spec.get('method')!r}; expected one of {', '.join(sorted(_METHODS))}")
        count = spec.get("count")
        duration = spec.get("duration")
        if count is not None and (isinstance(count, bool) or not isinstance(count, int) or count < 1):
            raise ConfigError("count must be a positive integer (the next N matching requests)")
        if duration is not None and (
            isinstance(duration, bool) or not isinstance(duration, (int, float)) or duration <= 0
        ):
            raise ConfigError("duration must be a positive number of seconds")
        if count is None and duration is None:
            count = 1
        params = {key: spec[key] for key in FAULT_KINDS[kind][1] if key in spec}
        _check_params(kind, params)
        rule = FaultRule(
            id=next(self._ids),
            kind=kind,
            route=route,
            method=method,
            pattern=pattern,
            params=params,
            remaining=count,
            expires_at=None if duration is None else time.monotonic() + float(duration),
        )
        self.rules.append(rule)
        return rule

    def remove(self, rule_id: int) -> bool:
        """Remove a rule; the requests a removed ``hold`` holds go on."""
        removed = [rule for rule in self.rules if rule.id == rule_id]
        for rule in removed:
            rule.release()
        self.rules = [rule for rule in self.rules if rule.id != rule_id]
        return bool(removed)

    def take(self, method: str, path: str) -> list[FaultRule]:
        """Consume one use of every active rule matching this request."""
        now = time.monotonic()
        matched = []
        for rule in self.rules:
            if rule.kind == "health_sequence" or not rule.active(now):
                continue
            if rule.method not in ("*", method) or not rule.pattern.fullmatch(path):
                continue
            rule.hits += 1
            if rule.remaining is not None:
                rule.remaining -= 1
            matched.append(rule)
        self.rules = [rule for rule in self.rules if rule.active(now) or rule.kind == "health_sequence"]
        return matched


def _check_params(kind: str, params: dict[str, Any]) -> None:
    if kind == "status":
        status = params.get("status")
        if isinstance(status, bool) or not isinstance(status, int) or not 100 <= status <= 599:
            raise ConfigError("a status fault needs status: an HTTP status code between 100 and 599")
    if kind == "error_after_create":
        status = params.setdefault("status", 500)
        if isinstance(status, bool) or not isinstance(status, int) or not 500 <= status <= 599:
            raise ConfigError("error_after_create status must be a 5xx code")
    if "retry_after" in params:
        value = params["retry_after"]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            raise ConfigError("retry_after must be a non-negative number of seconds")
    if kind == "delay":
        seconds = params.get("seconds")
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 <= seconds <= 600:
            raise ConfigError("a delay fault needs seconds: a number between 0 and 600")
    if kind == "hold":
        parties = params.get("parties")
        if isinstance(parties, bool) or not isinstance(parties, int) or not 1 <= parties <= 100:
            raise ConfigError("a hold fault needs parties: how many requests to hold until they all go on (1 to 100)")
        timeout = params.setdefault("timeout", 60)
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout <= 600:
            raise ConfigError("a hold fault's timeout must be a number of seconds above 0 and at most 600")
    if kind == "health_sequence":
        if not isinstance(params.get("endpoint_id"), str):
            raise ConfigError("a health_sequence fault needs endpoint_id")
        validate_health_sequence(params.get("sequence"))


def validate_health_sequence(sequence: Any) -> list[Any]:
    if not isinstance(sequence, list) or not sequence:
        raise ConfigError('sequence must be a non-empty list of /health bodies or {"status": <code>} entries')
    for entry in sequence:
        if not isinstance(entry, dict):
            raise ConfigError("each sequence entry must be an object")
        if "status" in entry and (not isinstance(entry["status"], int) or isinstance(entry["status"], bool)):
            raise ConfigError("a sequence entry's status must be an integer HTTP status")
        if "status" not in entry and not ({"workers", "jobs"} & set(entry)):
            raise ConfigError('a sequence entry is either {"status": <code>} or a body with workers/jobs')
    return sequence


@dataclass
class RequestLog:
    entries: list[dict[str, Any]] = field(default_factory=list)
    limit: int = 200_000
    _seq: Any = field(default_factory=lambda: itertools.count(1))

    def add(self, entry: dict[str, Any]) -> None:
        entry["seq"] = next(self._seq)
        self.entries.append(entry)
        if len(self.entries) > self.limit:
            del self.entries[: len(self.entries) - self.limit]

    def clear(self) -> None:
        self.entries.clear()

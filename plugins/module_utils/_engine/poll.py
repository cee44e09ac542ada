# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The poll loop every wait runs (``until``, docs/dev/wait-and-status.md section 1) and ``Poller``, the pollers'
interface; what pollers share is held (a ``MissCounter``) or called (``counted_read``), never inherited.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._engine.outcome import (
    WAIT_INTERRUPTED,
    WAIT_TIMEOUT,
    MissCounter,
    WaitError,
    WaitOutcome,
    classify,
    error_text,
    fatal_link,
    is_not_found,
    rate_limit_sleep,
    retry_after_of,
)
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.duration import (
    format_duration,
    format_elapsed,
    whole_seconds,
)

DEFAULT_TIMEOUT = 600.0
DEFAULT_INTERVAL = 5.0
DEFAULT_PROGRESS_EVERY = 15.0
DEFAULT_PROBE_INTERVAL = 0.25

# The read budget (``Cadence``): the bank's size, how soon an imminent transition is read again (share of the
# interval) and how far a steady phase stretches a gap.
READ_BANK = 3.0
IMMINENT_SHARE = 0.5
MAX_STRETCH = 2.0
CADENCES = ("adaptive", "fixed")
# Forces the cadence of every wait in the process (the benchmark sets ``fixed`` to measure the reference).
CADENCE_ENV = "RUNPOD_CLOUD_WAIT_CADENCE"

# A real sleep re-checks the cancel token at least this often, in case a signal lands outside Event.wait.
_MAX_SLEEP_SLICE = 0.5


class SystemClock:
    """Monotonic wall clock; ``sleep`` wakes early when ``cancel`` fires."""

    def now(self):
        return time.monotonic()

    def sleep(self, seconds, cancel=None):
        end = time.monotonic() + seconds
        while (remaining := end - time.monotonic()) > 0:
            if cancel is None:
                time.sleep(remaining)
                return
            if cancel.wait(min(remaining, _MAX_SLEEP_SLICE)):
                return


class PollResult:
    """One observation; ``recheck``: a cheap check run between API reads, ``imminent``: read again sooner,
    ``states`` and ``summary`` (batch waits): each pod's state and the running count the heartbeat shows."""

    __slots__ = ("detail", "imminent", "ready", "recheck", "states", "summary", "value")

    def __init__(self, ready, detail="", value=None, recheck=None, states=None, imminent=False, summary=None):
        self.ready = bool(ready)
        self.detail = detail or ""
        self.value = value
        self.recheck = recheck
        self.states = states
        self.imminent = bool(imminent)
        self.summary = summary or ""

    def __repr__(self):
        return f"PollResult(ready={self.ready!r}, detail={self.detail!r})"


class Poller:
    """One poll per call (``until`` runs it). The waiter sets ``deadline`` (monotonic), which probes are capped at;
    ``lost()``: the wait saw the resource and then lost it (a ``not_found`` that means deleted, not never there)."""

    deadline: float | None = None

    def __call__(self) -> Any:
        return self.poll()

    def poll(self) -> Any:
        raise NotImplementedError

    def lost(self) -> bool:
        return False


def tracked(kind: str, resource_id: str, wait_for: str, choices: tuple) -> MissCounter:
    """The ``MissCounter`` of a poller of one ``kind`` of resource, once ``wait_for`` is one of its ``choices``."""
    if wait_for not in choices:
        raise ValueError(f"wait_for must be one of {', '.join(choices)}, got {wait_for!r}")
    return MissCounter(kind, resource_id)


def counted_read(misses: MissCounter, read: Callable[[], Any]) -> tuple[PollResult | None, Any]:
    """``read()`` under the miss rules (docs/dev/wait-and-status.md, section 3): ``(None, value)`` when it answered;
    ``(not-ready result, None)`` for a 404, a counted miss; any other failure ends the run of misses and is raised."""
    try:
        value = read()
    except Exception as err:
        if is_not_found(err):
            return PollResult(False, misses.missed(err)), None
        misses.read_failed()
        raise
    misses.seen()
    return None, value


class FunctionPoller(Poller):
    """A plain function as a poller (a read retried like a wait's reads)."""

    def __init__(self, function: Callable[[], Any]) -> None:
        self.function = function

    def __call__(self) -> Any:
        return self.function()


class Cadence:
    """When the next API read of a wait happens: a token bucket (docs/dev/wait-and-status.md, section 1.1)."""

    def __init__(self, interval, start, deadline, adaptive=True):
        self.interval = interval
        self.deadline = deadline
        self.adaptive = adaptive
        self._tokens = READ_BANK
        self._stamp = start

    def tokens(self, now):
        return min(READ_BANK, self._tokens + max(0.0, now - self._stamp) / self.interval)

    def spend(self, now):
        self._tokens = self.tokens(now) - 1.0
        self._stamp = max(self._stamp, now)

    def next_read(self, now, imminent=False, retry_after=0.0):
        if not self.adaptive:
            return min(self.deadline, now + max(self.interval, retry_after))
        tokens = self.tokens(now)
        if tokens + (self.deadline - now) / self.interval < 2.0:
            return self.deadline  # only the final read at the deadline is still funded
        earliest = now + max(0.0, 1.0 - tokens) * self.interval
        if imminent:
            wanted = now + IMMINENT_SHARE * self.interval
        else:
            refill = (READ_BANK - tokens) * self.interval
            wanted = now + min(max(self.interval, refill), MAX_STRETCH * self.interval)
        return min(self.deadline, max(earliest, wanted, now + retry_after))


class _Waiter:
    """State of one ``until()`` call, which the read and recheck paths share."""

    def __init__(self, label, clock, cancel, progress, on_transition, progress_every, resource_id):
        self.label = label
        self.clock = clock
        self.cancel = cancel
        self.progress = progress
        self.on_transition = on_transition
        self.progress_every = progress_every
        self.resource_id = resource_id
        self.start = clock.now()
        self.last_progress = self.start
        self.detail = ""
        self.summary = ""
        self.states = None
        self.history = []
        self.polls = 0
        self.probes = 0

    def emit(self, line):
        if self.progress is not None:
            self.progress(line)

    def elapsed(self):
        return self.clock.now() - self.start

    def shown_detail(self):
        return self.detail or "not ready"

    def observe(self, result):
        detail = result.detail or ""
        if result.states is not None:
            self.states = result.states
        if detail != self.detail or not self.history:
            self.detail = detail
            entry = {"elapsed": round(self.elapsed(), 3), "state": self.shown_detail()}
            self.history.append(entry)
            if self.on_transition is not None:
                self.on_transition(dict(entry))
        if result.summary and result.summary != self.summary:
            self.summary = result.summary
            self.emit(self.summary)

    def maybe_progress(self):
        now = self.clock.now()
        if now - self.last_progress >= self.progress_every:
            elapsed = format_elapsed(now - self.start)
            self.emit(f"still waiting for {self.label} ({elapsed} elapsed): {self.summary or self.shown_detail()}")
            self.last_progress = now

    def fail(self, code, text, status=None):
        return WaitError(code, self.label, text, resource_id=self.resource_id, last_state=self.shown_detail(),
                         elapsed=whole_seconds(self.elapsed()), polls=self.polls, probes=self.probes,
                         status=status, history=self.history, last_states=self.states)

    def ended(self, code, verb):
        return self.fail(code, f"{verb} after {format_elapsed(self.elapsed())} waiting for {self.label}; "
                               f"last known state: {self.shown_detail()}")

    def fatal(self, err):
        link = fatal_link(err)
        text = f"waiting for {self.label}: {error_text(err)}"
        status = getattr(link, "status", None)
        code = getattr(link, "code", None) or "api_error"
        states = getattr(link, "states", None)
        if isinstance(states, dict):  # the failing read's view, even when it was the first read
            self.states = states
        return self.fail(code, text, status=status if isinstance(status, int) else None)

    def succeed(self, result):
        self.observe(result)
        self.emit(f"{self.label} ready after {format_elapsed(self.elapsed())}: {self.shown_detail()}")
        return WaitOutcome(result.value, self.shown_detail(), whole_seconds(self.elapsed()), self.polls,
                           self.probes, self.history, self.states)

    def run(self, check):
        """``(PollResult, error)``: a transient error becomes a not-ready result."""
        try:
            result = check()
        except Exception as err:
            if classify(err):
                raise self.fatal(err) from err
            return PollResult(False, error_text(err)), err
        if not isinstance(result, PollResult):
            result = PollResult(bool(result))
        return result, None

    def sleep(self, seconds):
        cancelled = self.cancel is not None and self.cancel.cancelled
        if seconds > 0 and not cancelled:
            waking = {"cancel": self.cancel} if self.cancel is not None and isinstance(self.clock, SystemClock) else {}
            self.clock.sleep(seconds, **waking)
        if self.cancel is not None and self.cancel.cancelled:
            raise self.ended(WAIT_INTERRUPTED, "interrupted")


def _positive_or(value, default):
    try:
        return float(value) if value is not None and float(value) > 0 else default
    except (TypeError, ValueError):
        return default


def until(poll, *, label, timeout=DEFAULT_TIMEOUT, interval=DEFAULT_INTERVAL, clock=None, cancel=None,
          progress=None, progress_every=DEFAULT_PROGRESS_EVERY, probe_interval=DEFAULT_PROBE_INTERVAL,
          resource_id=None, on_transition=None, cadence=None, timeout_text=None, kept=None):
    """Poll until ready; return a ``WaitOutcome`` or raise ``WaitError``. ``probe_interval=None`` runs no recheck,
    ``on_transition`` gets each ``{"elapsed", "state"}`` change; durations <= 0 mean defaults. ``kept`` (``the
    pod``) makes the first line say what an interrupt does: said up front, as Ansible ends its workers at once."""
    clock = clock if clock is not None else SystemClock()
    timeout = _positive_or(timeout, DEFAULT_TIMEOUT)
    interval = _positive_or(interval, DEFAULT_INTERVAL)
    progress_every = _positive_or(progress_every, DEFAULT_PROGRESS_EVERY)
    probe_interval = None if probe_interval is None else _positive_or(probe_interval, DEFAULT_PROBE_INTERVAL)
    if cadence is not None and cadence not in CADENCES:
        raise ValueError(f"cadence must be one of {', '.join(CADENCES)}, got {cadence!r}")
    adaptive = (cadence or os.environ.get(CADENCE_ENV, "").strip().lower()) != "fixed"
    waiter = _Waiter(label, clock, cancel, progress, on_transition, progress_every, resource_id)
    deadline = waiter.start + timeout
    schedule = Cadence(interval, waiter.start, deadline, adaptive=adaptive)
    # The timeout as given (15m), else to the millisecond: not what a first read (pod_info) left of it.
    interrupt = f"; Ctrl-C keeps {kept}, a rerun resumes" if kept else ""
    waiter.emit(f"waiting for {label} (timeout {timeout_text or format_duration(round(timeout, 3))}{interrupt})")

    while True:
        waiter.polls += 1
        schedule.spend(clock.now())
        result, err = waiter.run(poll)
        if result.ready:
            return waiter.succeed(result)
        waiter.observe(result)
        waiter.maybe_progress()
        remaining = deadline - clock.now()
        if remaining <= 0:
            raise waiter.ended(WAIT_TIMEOUT, "timed out")
        retry_after = rate_limit_sleep(retry_after_of(err), remaining)
        next_read = schedule.next_read(clock.now(), result.imminent, retry_after)
        recheck = result.recheck if probe_interval is not None else None
        while True:
            gap = next_read - clock.now()
            if gap <= 0:
                waiter.sleep(0)  # still honour a cancel that arrived during the read
                break
            if recheck is None:
                waiter.sleep(gap)
                break
            waiter.sleep(min(probe_interval, gap))
            if clock.now() >= next_read:
                break  # the API read re-probes anyway
            waiter.probes += 1
            checked, _ignored = waiter.run(recheck)
            if checked.ready:
                return waiter.succeed(checked)
            waiter.observe(checked)
            waiter.maybe_progress()
            if checked.recheck is not None:
                recheck = checked.recheck

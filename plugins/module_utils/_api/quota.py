# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""RunPod's per-user quotas, read from every answer and kept before every request, so a fleet paces itself instead
of provoking 429s: see docs/dev/api-notes.md, "Rate limits"."""

from __future__ import annotations

import email.utils
import math
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime

# A window name -> the words of the progress line ("0 of 60 left this minute").
_WINDOW_WORDS = {"minute": "this minute", "hour": "this hour", "day": "today", "second": "this second"}
# Longest real-time wait for an answer in flight before the windows are looked at again.
_IN_FLIGHT_RECHECK = 0.5


def _number(text):
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) and value >= 0 else None


def _split_outside_quotes(text, separator):
    parts, current, quoted, escaped = [], [], False, False
    for char in text:
        if escaped:
            current.append(char)
            escaped = False
        elif char == "\\" and quoted:
            escaped = True
        elif char == '"':
            quoted = not quoted
            current.append(char)
        elif char == separator and not quoted:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current))
    return parts


def parse_members(text):
    """``{window name: {parameter: number}}`` from a structured-field list (``"minute";q=60;w=60, ...``); never
    raises: a member without a usable name is skipped, a parameter that is no number >= 0 dropped."""
    members: dict = {}
    if not isinstance(text, str):
        return members
    for member in _split_outside_quotes(text, ","):
        pieces = _split_outside_quotes(member.strip(), ";")
        name = pieces[0].strip()
        if len(name) >= 2 and name[0] == name[-1] == '"':
            name = name[1:-1].replace('\\"', '"').replace("\\\\", "\\")
        if not name or '"' in name:
            continue
        params = {}
        for piece in pieces[1:]:
            key, _sep, value = piece.strip().partition("=")
            number = _number(value.strip())
            if key.strip() and number is not None:
                params[key.strip().lower()] = number
        members[name] = params
    return members


def parse_retry_after(value, now=None):
    """Seconds from a ``Retry-After`` header (delta-seconds or HTTP date); None when absent or unreadable."""
    value = (value or "").strip()
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        seconds = (when - (now or datetime.now(UTC))).total_seconds()
    return None if math.isnan(seconds) else max(0.0, seconds)


def seconds_text(seconds):
    """``41 s``, ``0.8 s``, ``12 min``: how long a pause lasts, for a progress line."""
    if seconds >= 120:
        return f"{seconds / 60:.0f} min"
    if seconds >= 10:
        return f"{math.ceil(seconds)} s"
    return f"{max(seconds, 0.0):.1f} s"


@dataclass
class Window:
    """One quota window of the current period: ``reported`` is the lowest ``r`` its answers gave, ``lost`` the
    requests of the period that got no answer."""

    name: str
    quota: float | None
    length: float | None
    reported: float
    reset_at: float
    lost: int = 0

    def left(self, in_flight):
        return self.reported - in_flight - self.lost

    def roll(self, now):
        # A fresh quota: the next answer says exactly how much.
        if now >= self.reset_at:
            self.reported = self.quota if self.quota is not None else math.inf
            self.lost = 0
            self.reset_at = now + self.length if self.length else math.inf


@dataclass(frozen=True)
class Block:
    """Why a request waits: ``window`` (None for a bare Retry-After), what was left of how many, and when it resets."""

    window: str | None
    remaining: float
    quota: float | None
    resume_at: float

    def line(self, now):
        wait = seconds_text(self.resume_at - now)
        if self.window is None:
            return f"quota: RunPod answered 429 (too many requests), resuming in {wait}"
        words = _WINDOW_WORDS.get(self.window, f"in the {self.window} window")
        of = f" of {int(self.quota)}" if self.quota is not None else ""
        return f"quota: {max(0, int(self.remaining))}{of} left {words}, resuming in {wait}"

    def as_dict(self, now):
        resets_in = round(max(0.0, self.resume_at - now), 3)
        result = {"window": self.window, "remaining": max(0, int(self.remaining)), "resets_in": resets_in,
                  "resets_at": datetime.fromtimestamp(time.time() + resets_in, UTC).isoformat(timespec="seconds")}
        if self.quota is not None:
            result["quota"] = int(self.quota)
        return result

    def failure(self, now, budget):
        """``(message, details)`` of a task whose ``budget`` (``create_timeout 10m``) ends before this reset."""
        details = self.as_dict(now)
        window = f"the {self.window} window of RunPod's quota" if self.window else "RunPod's quota"
        left = f" ({details['remaining']} of {details['quota']} left)" if "quota" in details else ""
        return (f"rate limited: {window} is spent{left} and resets in {seconds_text(details['resets_in'])} "
                f"(at {details['resets_at']}), after this task's budget ({budget}) ends", details)


class QuotaKeeper:
    """One client's view of RunPod's quota windows, thread-safe. ``report(line)`` gets one progress line per pause."""

    def __init__(self, clock, report=None):
        self.clock = clock
        self.report = report
        self._cond = threading.Condition()
        self._windows: dict[str, Window] = {}
        self._hold: Block | None = None
        self._in_flight = 0
        self._announced: tuple | None = None

    def windows(self):
        """``{name: (requests left, quota, reset time)}``."""
        with self._cond:
            now = self.clock.now()
            for window in self._windows.values():
                window.roll(now)
            return {name: (w.left(self._in_flight), w.quota, w.reset_at) for name, w in self._windows.items()}

    def settle(self, headers):
        """A request's answer arrived (``headers``), or it failed without one (None: it may have been counted, so it
        stays spent for the rest of the period)."""
        with self._cond:
            self._in_flight = max(0, self._in_flight - 1)
            if headers is not None:
                self._observe(headers.get("RateLimit-Policy"), headers.get("RateLimit"))
            else:
                for window in self._windows.values():
                    window.lost += 1
            self._cond.notify_all()

    def _observe(self, policy_text, state_text):
        state = {name: params for name, params in parse_members(state_text).items() if "r" in params and "t" in params}
        if not state:
            self._windows = {}  # no quota headers: the caller is exempt
            return
        policy = parse_members(policy_text)
        now = self.clock.now()
        windows = {}
        for name, params in state.items():
            known = self._windows.get(name)
            limits = policy.get(name, {})
            quota = limits.get("q", known.quota if known else None)
            length = limits.get("w", known.length if known else None)
            fresh = Window(name, quota, length, params["r"], now + params["t"])
            if known is not None and now < known.reset_at:
                # Same period: the lowest r is RunPod's newest count (docs/dev/api-notes.md, "Rate limits"). An answer
                # of the period before, handled after the keeper's reset, holds requests only until its own reset.
                fresh.reported = min(fresh.reported, known.reported)
                fresh.lost = known.lost
            windows[name] = fresh
        self._windows = windows

    def hold(self, seconds, window=None):
        """A 429 asked for ``seconds``: every request waits until then (never shortened); the ``Block`` in force."""
        with self._cond:
            resume_at = self.clock.now() + max(0.0, float(seconds))
            if self._hold is None or resume_at > self._hold.resume_at:
                known = self._windows.get(window) if window else None
                self._hold = Block(window, 0, known.quota if known else None, resume_at)
            return self._hold

    def spent_window(self):
        """The window the last answers said was spent (``r=0``) and resets last, or None."""
        with self._cond:
            spent = [w for w in self._windows.values() if w.reported <= 0]
            return max(spent, key=lambda w: w.reset_at).name if spent else None

    def _block(self, now):
        """The pause that holds the next request (the one ending last), or None."""
        worst = self._hold if self._hold is not None and self._hold.resume_at > now else None
        for window in self._windows.values():
            window.roll(now)
            if window.left(self._in_flight) <= 0 and window.reset_at > now and (
                    worst is None or window.reset_at > worst.resume_at):
                worst = Block(window.name, window.reported, window.quota, window.reset_at)
        return worst

    def acquire(self, deadline=math.inf):
        """Wait until every window has room and count the request in flight (None); or, when the wait would end after
        ``deadline``, count nothing and return the ``Block``."""
        while True:
            line = None
            with self._cond:
                now = self.clock.now()
                block = self._block(now)
                if block is None:
                    self._in_flight += 1  # counts against every window until its answer
                    return None
                if block.resume_at > deadline:
                    return block
                if self._in_flight > 0 and block is not self._hold:
                    # Answers in flight will say exactly what is left: wait for them before a long sleep.
                    self._cond.wait(min(_IN_FLIGHT_RECHECK, block.resume_at - now))
                    continue
                key = (block.window, round(block.resume_at, 3))
                if key != self._announced:
                    self._announced = key
                    line = block.line(now)
            if line is not None and self.report is not None:
                self.report(line)
            self.clock.sleep(max(0.0, block.resume_at - now))

# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""RunPod's per-user quota windows (the v2 document's ``RateLimit-Policy`` / ``RateLimit`` / ``Retry-After``).

The policy is the document's structured-field list, e.g. the example policy
``"minute";q=60;w=60, "hour";q=3000;w=3600, "day";q=50000;w=86400``. Each API key has its own fixed windows: a
window starts at the first request after the previous one ended and allows ``q`` requests. Windows run on the
simulator's scaled clock (``w`` simulated seconds are ``w * time_scale`` real seconds), so a 60 s window costs 1.2 s
at time_scale 0.02. ``RateLimit-Policy`` announces the nominal windows; ``RateLimit``'s ``t`` and ``Retry-After``
count real seconds, which is what a client sleeps: an integer at time_scale 1, a decimal (``t=0.82``, the
structured-field decimal) when scaled, and ``Retry-After`` (an integer in the document) rounded up.
"""

from __future__ import annotations

import math
import re
import time

from .store import ConfigError

EXAMPLE_POLICY = '"minute";q=60;w=60, "hour";q=3000;w=3600, "day";q=50000;w=86400'
_MEMBER = re.compile(r'^\s*"?(?P<name>[A-Za-z][\w.-]*)"?\s*(?P<params>(?:;\s*[a-z]+\s*=\s*[0-9.]+\s*)*)$')
_PARAM = re.compile(r";\s*([a-z]+)\s*=\s*([0-9.]+)")


def parse_policy(text: str) -> list[tuple[str, int, float]]:
    """``[(name, quota, seconds), ...]`` of a policy text ("" or "off": no windows); ConfigError when unreadable."""
    text = (text or "").strip()
    if text.lower() in ("", "off", "0"):
        return []
    if text.lower() == "example":
        text = EXAMPLE_POLICY
    windows = []
    for member in text.split(","):
        match = _MEMBER.match(member)
        if not match:
            raise ConfigError(f'rate_limit: cannot read {member.strip()!r}; expected e.g. {EXAMPLE_POLICY}')
        params = dict(_PARAM.findall(match.group("params")))
        try:
            quota, seconds = int(params["q"]), float(params["w"])
        except (KeyError, ValueError):
            raise ConfigError(f"rate_limit: {member.strip()!r} needs an integer q and a number w") from None
        if quota < 1 or seconds <= 0:
            raise ConfigError(f"rate_limit: {member.strip()!r} needs q >= 1 and w > 0")
        windows.append((match.group("name"), quota, seconds))
    return windows


def policy_text(windows: list[tuple[str, int, float]]) -> str:
    return ", ".join(f'"{name}";q={quota};w={_number(seconds)}' for name, quota, seconds in windows)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.3f}".rstrip("0").rstrip(".")


def windows_from_config(config) -> list[tuple[str, int, float]]:
    """The policy in force: ``rate_limit`` when set, else the per-window keys (``rate_limit_per_minute`` ...)."""
    if config.rate_limit:
        return parse_policy(config.rate_limit)
    nominal = (("minute", config.rate_limit_per_minute, 60), ("hour", config.rate_limit_per_hour, 3600),
               ("day", config.rate_limit_per_day, 86400))
    return [(name, quota, seconds) for name, quota, seconds in nominal if quota]


class RateLimiter:
    """Fixed windows per API key; ``hit`` counts one authenticated request."""

    def __init__(self, clock=time.monotonic) -> None:
        self.clock = clock
        self.offset = 0.0  # real seconds the windows' clock was moved ahead (``advance``)
        # (api key, window name) -> (start, used)
        self.state: dict[tuple[str, str], tuple[float, int]] = {}
        self.rejected = 0

    def reset(self) -> None:
        self.state.clear()
        self.rejected = 0
        self.offset = 0.0

    def advance(self, seconds: float) -> None:
        """Move the windows' clock ``seconds`` real seconds ahead (a test steps a window instead of waiting)."""
        self.offset += seconds

    def hit(self, key: str, windows: list[tuple[str, int, float]], time_scale: float = 1.0):
        """Count one request of ``key``; return (the exceeded window or None, headers). No windows: no headers
        (the caller is exempt)."""
        if not windows:
            return None, {}
        now = self.clock() + self.offset
        state, exceeded, retry_after = [], None, 0.0
        for name, quota, seconds in windows:
            length = seconds * time_scale
            start, used = self.state.get((key, name), (None, 0))
            if start is None or now - start >= length:
                start, used = now, 0
            used += 1
            self.state[(key, name)] = (start, used)
            reset_in = max(0.001, start + length - now)
            state.append(f'"{name}";r={max(0, quota - used)};t={_reset_text(reset_in, time_scale)}')
            if used > quota and reset_in > retry_after:
                exceeded, retry_after = name, reset_in
        headers = {"RateLimit-Policy": policy_text(windows), "RateLimit": ", ".join(state)}
        if exceeded:
            self.rejected += 1
            headers["Retry-After"] = str(max(1, math.ceil(retry_after)))
        return exceeded, headers

    def peek(self, key: str, windows: list[tuple[str, int, float]], time_scale: float = 1.0) -> dict[str, str]:
        """The ``RateLimit`` of ``key`` now, counting nothing (an answer counted as it leaves)."""
        now = self.clock() + self.offset
        state = []
        for name, quota, seconds in windows:
            length = seconds * time_scale
            start, used = self.state.get((key, name), (None, 0))
            if start is None or now - start >= length:
                start, used = now, 0
            reset_in = max(0.001, start + length - now)
            state.append(f'"{name}";r={max(0, quota - used)};t={_reset_text(reset_in, time_scale)}')
        return {"RateLimit": ", ".join(state)} if state else {}


def _reset_text(seconds: float, time_scale: float) -> str:
    if time_scale == 1.0:
        return str(max(1, math.ceil(seconds)))
    return _number(math.ceil(seconds * 1000) / 1000)

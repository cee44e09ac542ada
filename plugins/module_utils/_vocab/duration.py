# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""Parse and format ``wait_timeout`` / ``wait_interval`` durations (pure Python, no Ansible import).

Accepted: an int or float of seconds, a string of digits (seconds: templated values arrive as strings),
``<N>d`` whole days, and Go duration syntax (``90s``, ``10m``, ``2h``, ``1h30m``, ``1.5h``, ``500ms``).
Everything must be > 0 and <= ``106751d`` (Go's int64-nanosecond limit, in whole days).
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

NANOS_PER_SECOND = 1_000_000_000
MAX_DAYS = 106751
MAX_SECONDS = MAX_DAYS * 86400

# Go's time.ParseDuration units, in nanoseconds (both micro signs are accepted, as Go does).
_UNIT_NANOS = {"ns": 1, "us": 1_000, "\u00b5s": 1_000, "\u03bcs": 1_000, "ms": 1_000_000, "s": NANOS_PER_SECOND,
               "m": 60 * NANOS_PER_SECOND, "h": 3600 * NANOS_PER_SECOND}
_COMPONENT = re.compile(r"(\d+\.?\d*|\.\d+)(ns|us|\u00b5s|\u03bcs|ms|s|m|h)")
_DAYS = re.compile(r"([+-]?\d+)d")

_FORMAT_HINT = "supported formats are e.g. 30m, 2h, 7d, or a number of seconds such as 600"


class DurationError(ValueError):
    """A duration that cannot be used; ``str()`` names the value and shows a valid example."""

    def __init__(self, value, reason):
        self.value, self.reason = value, reason
        super().__init__(f'invalid duration "{value}": {reason}')


def _in_range(value, amount, limit=MAX_SECONDS):
    """``amount`` (seconds, or nanoseconds with their ``limit``) when > 0 and <= ``limit``; else why not."""
    if amount <= 0:
        raise DurationError(value, "must be positive, e.g. 30m")
    if amount > limit:
        raise DurationError(value, f"out of range (max {MAX_DAYS}d)")
    return amount


def _parse_go(value):
    """Go ``time.ParseDuration`` syntax in nanoseconds, computed exactly (Fraction) so ``0.1s`` is not 0.1000000001."""
    body = value[1:] if value[:1] in ("+", "-") else value
    if not body:
        raise DurationError(value, _FORMAT_HINT)
    total, position = Fraction(0), 0
    while position < len(body):
        match = _COMPONENT.match(body, position)
        if match is None:
            raise DurationError(value, _FORMAT_HINT)
        number, unit = match.groups()
        total += Fraction(number) * _UNIT_NANOS[unit]
        position = match.end()
    # Go truncates sub-nanosecond remainders.
    return math.trunc(-total if value[:1] == "-" else total)


def parse(value):
    """Return ``value`` as a positive number of seconds (float), or raise ``DurationError``."""
    # bool is an int subclass; ``wait_timeout: true`` is a mistake, not one second.
    nan = isinstance(value, float) and math.isnan(value)
    if nan or isinstance(value, bool) or not isinstance(value, int | float | str):
        raise DurationError(value, _FORMAT_HINT)
    if not isinstance(value, str):
        return float(_in_range(value, value))
    if value.isdecimal():
        return float(_in_range(value, int(value)))
    days = _DAYS.fullmatch(value)
    if days:
        return float(_in_range(value, int(days.group(1)) * 86400))
    return _in_range(value, _parse_go(value), MAX_SECONDS * NANOS_PER_SECOND) / NANOS_PER_SECOND


def _format_fraction(whole, fraction, digits):
    """``whole`` plus ``fraction`` (of 10**digits) with trailing zeros trimmed, as Go prints it."""
    return str(whole) if fraction == 0 else f"{whole}.{str(fraction).zfill(digits).rstrip('0')}"


def format_duration(seconds):
    """Go ``Duration.String()`` of ``seconds``: ``10m0s``, ``1h30m0s``, ``1.5s``, ``500ms``, ``0s``."""
    nanos = round(Fraction(seconds) * NANOS_PER_SECOND)
    sign = "-" if nanos < 0 else ""
    nanos = abs(nanos)
    if nanos == 0:
        return "0s"
    if nanos < NANOS_PER_SECOND:
        if nanos < 1_000:
            return f"{sign}{nanos}ns"
        if nanos < 1_000_000:
            return f"{sign}{_format_fraction(nanos // 1_000, nanos % 1_000, 3)}\u00b5s"
        return f"{sign}{_format_fraction(nanos // 1_000_000, nanos % 1_000_000, 6)}ms"
    whole_seconds, fraction = divmod(nanos, NANOS_PER_SECOND)
    hours, rest = divmod(whole_seconds, 3600)
    minutes, secs = divmod(rest, 60)
    text = _format_fraction(secs, fraction, 9) + "s"
    if hours or minutes:
        text = f"{minutes}m{text}"
    if hours:
        text = f"{hours}h{text}"
    return sign + text


def format_elapsed(seconds):
    """Elapsed time rounded to whole seconds (half up, as Go's ``Round(time.Second)``), e.g. ``1m5s``."""
    return format_duration(whole_seconds(seconds))


def whole_seconds(seconds):
    return math.floor(seconds + 0.5)

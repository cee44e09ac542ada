# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""billing_info's input model: a plain ``Record``, not pydantic, which a read-only task never imports
(docs/dev/architecture.md, "Import cost")."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from ansible_collections.runpod.cloud.plugins.module_utils._vocab.record import Record

# The billing kinds with per-resource records, which ``resource_id`` can filter.
FILTERED_KINDS = ("pods", "serverless", "network_volumes", "clusters")
DATE_ONLY = re.compile(r"\A\d{4}-\d{2}-\d{2}\Z")


def utc_time(value, option):
    """``value``, an RFC 3339 date-time with a zone or a ``YYYY-MM-DD`` date (midnight UTC), as RFC 3339 UTC
    (``...Z``); raises ValueError naming ``option`` otherwise."""
    text = str(value).strip()
    if DATE_ONLY.match(text):
        text += "T00:00:00Z"
    try:
        moment = datetime.fromisoformat(text[:-1] + "+00:00" if text[-1:] in ("Z", "z") else text)
    except ValueError:
        raise ValueError(f"{option} must be an RFC 3339 date-time such as 2026-06-01T00:00:00Z, or a date such as "
                         f"2026-06-01; got {value!r}") from None
    if moment.tzinfo is None:
        raise ValueError(f"{option} needs a time zone (for example a trailing Z for UTC); got {value!r}")
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class BillingInput(Record):
    """The query's rules (its choices, and ``last_n`` without times, are the argument spec's)."""

    kind: str | None = None
    start_time: str | None = None
    end_time: str | None = None
    last_n: int | None = None
    resource_id: str | None = None

    def check(self):
        start = utc_time(self.start_time, "start_time") if self.start_time else None
        end = utc_time(self.end_time, "end_time") if self.end_time else None
        if self.last_n is not None and self.last_n < 1:
            raise ValueError(f"last_n must be at least 1, got {self.last_n}")
        if start and end and start >= end:
            raise ValueError(f"start_time ({start}) must be before end_time ({end})")
        if self.resource_id and self.kind not in FILTERED_KINDS:
            raise ValueError(f"resource_id cannot filter billing kind {self.kind!r} (it has no per-resource records)")

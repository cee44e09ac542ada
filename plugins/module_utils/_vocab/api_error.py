# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""``RunPodError``: a failed API call, as every floor sees it (the client raises it, a table's reader raises it for an
answer without an id)."""

from __future__ import annotations


class RunPodError(Exception):
    """A failed API call. ``code`` is a machine-readable code (docs/dev/api-notes.md, section 2); ``status``
    the HTTP status or None."""

    def __init__(self, code, status=None, message="", retry_after=None, maybe_created=False, errors=None, quota=None,
                 fatal=False):
        self.code, self.status, self.message, self.retry_after = code, status, message or code, retry_after
        # True when a create may have taken effect although it failed (5xx / connection lost mid-call).
        self.maybe_created = maybe_created
        self.errors = list(errors or [])
        # A quota that cannot reset within the task's budget: ``{window, remaining, quota, resets_in, resets_at}``;
        # ``fatal`` tells the poll engine not to wait for it (docs/pods.md, "Fleets and RunPod's quotas").
        self.quota = quota
        self.fatal = fatal
        super().__init__(self.message)

    def __str__(self):
        return self.message

    def __repr__(self):
        return f"RunPodError(code={self.code!r}, status={self.status!r}, message={self.message!r})"

# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""How long a task lets its calls wait for RunPod's quota (docs/pods.md, "Fleets and RunPod's quotas").

The client paces every request by the quota windows and waits out 429s (``_api.quota``), but only as long as the
task's own deadline allows: for a wait its ``wait_timeout``; for creates the create budget, which is the task's
``wait_timeout`` when ``wait: true`` and ``create_timeout`` (default 10m) otherwise. A quota that cannot reset within
the budget fails with ``rate_limited``, the window and its reset time.
"""

from __future__ import annotations

from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._vocab import duration as _duration

DEFAULT_CREATE_TIMEOUT = "10m"
# The pod module's option (fleets too); paired with its DOCUMENTATION (create_timeout).
CREATE_TIMEOUT_SPEC = dict(create_timeout=dict(type="raw", default=DEFAULT_CREATE_TIMEOUT))


def create_budget(params: dict, wait_settings: Any) -> tuple[float, str]:
    """``(seconds, label)`` the creates of this task may wait for the quota."""
    if wait_settings is not None and wait_settings.wait:
        return wait_settings.timeout, f"wait_timeout {params.get('wait_timeout')}"
    value = params.get("create_timeout") if params.get("create_timeout") is not None else DEFAULT_CREATE_TIMEOUT
    return _duration.parse(value), f"create_timeout {value}"


def set_budget(backend: Any, seconds: float, label: str) -> None:
    """Start the budget on the backend's client (a test double without a client has nothing to set)."""
    setter = getattr(getattr(backend, "client", None), "set_budget", None)
    if setter is not None:
        setter(seconds, label)


def start_create_budget(runner: Any) -> None:
    """Before the first call of a create task: its creates wait for the quota at most the create budget."""
    seconds, label = create_budget(runner.params, runner.wait_settings)
    set_budget(runner.backend, seconds, label)


def report_pauses(runner: Any, backend: Any) -> None:
    """Each pause for the quota becomes one line: the live progress line on the controller (the waiter's
    ``progress``), else a warning of the task."""
    keeper = getattr(getattr(backend, "client", None), "quota", None)
    if keeper is None:
        return

    def report(line: str) -> None:
        # Asked when the pause comes: a wait resumed on the controller prints through its waiter's progress.
        progress = getattr(getattr(runner, "waiter", None), "progress", None)
        if progress is not None:
            progress(line)
        else:
            runner.warn(line)

    keeper.report = report

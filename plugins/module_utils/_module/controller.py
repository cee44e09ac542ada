# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The controller's side of a wait handoff: ``resume_wait`` (docs/dev/architecture.md, "Waits on the controller")."""

from __future__ import annotations

from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._module.base import HANDOFF_KEY, Report, RunPodModule


class _WaitEndedError(Exception):
    def __init__(self, result):
        super().__init__("wait ended")
        self.result = result


def _warning_text(warning: Any) -> Any:
    """The message of a module warning: text, a 2.19 warning event, or its JSON form."""
    if isinstance(warning, dict):
        return (warning.get("event") or {}).get("msg")
    event = getattr(warning, "event", None)
    return getattr(event, "msg", None) if event is not None else warning


class ControllerReport(Report):
    """A resumed wait's report: its warnings are added to the task's result, and its end ends the wait."""

    def __init__(self) -> None:
        super().__init__(None)
        # None while the host is built: the module already gave those warnings. Then the wait's own.
        self.warnings: list[str] | None = None

    def warn(self, warning: str) -> None:
        if self.warnings is not None and warning not in self.warnings:
            self.warnings.append(warning)

    def _with_warnings(self, result: dict) -> dict:
        # As a module's own warnings: each message once per task, after the ones the module gave before the handoff.
        given = list(result.get("warnings") or [])
        known = {_warning_text(warning) for warning in given}
        added = [warning for warning in self.warnings or () if warning not in known]
        if added:
            result["warnings"] = [*given, *added]
        return result

    def exit(self, result: dict) -> None:
        raise _WaitEndedError(self._with_warnings(dict(result)))

    def fail(self, msg: str, result: dict) -> None:
        raise _WaitEndedError(self._with_warnings(dict(result, failed=True, msg=msg)))


def resume_wait(waiter_class, module_result: dict, api_key: str, progress=None, on_transition=None,
                secrets=(), run_command=None) -> dict:
    """The task's result after the wait the module handed off (``module_result[HANDOFF_KEY]``), as the module's own
    would be. ``secrets``: what log lines must not show; ``run_command``: the host key step's local tools."""
    result = dict(module_result)
    handoff = result.pop(HANDOFF_KEY)
    report = ControllerReport()
    try:
        host = RunPodModule(None, params=dict(handoff["params"], api_key=api_key), report=report,
                            result_key=waiter_class.result_key, run_command=run_command)
        report.warnings = []
        host.result = result
        waiter = host.waiter = waiter_class(host, progress=progress, on_transition=on_transition)
        waiter.log_secrets = [str(value) for value in secrets if value is not None]
        try:
            waiter.resume(handoff)
        except RunPodError as error:  # as run_module does: the structured failure, never a traceback
            waiter.fail_unexpected(error)
        host.exit()
    except _WaitEndedError as ended:
        return ended.result
    raise AssertionError("the resumed wait neither exited nor failed")  # pragma: no cover

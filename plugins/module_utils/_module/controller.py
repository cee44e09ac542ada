# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The controller's side of a wait handoff (docs/dev/architecture.md, "Waits on the controller"): a stand-in for
the AnsibleModule a resumed wait uses, and ``resume_wait``, which runs the module's own wait on its result."""

from __future__ import annotations

from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._module.handoff import HANDOFF_KEY


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


class _ControllerModule:
    """The part of AnsibleModule a resumed wait uses; ``exit_json``/``fail_json`` end it with its result."""

    check_mode = False
    _diff = False

    def __init__(self, params: dict) -> None:
        self.params = params
        # None while the wait class is built: the module already gave those warnings (the connection options are
        # the same). Then a list: the wait's own warnings, added to the result as the module would add them.
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

    def exit_json(self, **result: Any) -> None:
        raise _WaitEndedError(self._with_warnings(result))

    def fail_json(self, msg: str, **result: Any) -> None:
        raise _WaitEndedError(self._with_warnings(dict(result, failed=True, msg=msg)))


def resume_wait(wait_class, module_result: dict, api_key: str, progress=None, on_transition=None,
                secrets=()) -> dict:
    """Run the wait the module handed off (``module_result[HANDOFF_KEY]``) here; return the task's result.

    The module did everything but the wait; this runs the same ``wait_for`` on its result, so the result is
    what the module would have returned had it waited itself. ``secrets`` are the task's values that log lines
    must not show (the handoff never carries them; ``_module.logs.task_secrets``).
    """
    result = dict(module_result)
    handoff = result.pop(HANDOFF_KEY)
    module = _ControllerModule(dict(handoff["params"], api_key=api_key))
    try:
        runner = wait_class(module)
        module.warnings = []
        runner.progress = progress
        runner.log_secrets = [str(value) for value in secrets if value is not None]
        runner.on_transition = on_transition
        runner.result = result
        try:
            runner.resume(handoff)
        except RunPodError as error:  # as run_module does: the structured failure, never a traceback
            runner.fail_unexpected(error)
        runner.exit()
    except _WaitEndedError as ended:
        return ended.result
    raise AssertionError("the resumed wait neither exited nor failed")  # pragma: no cover

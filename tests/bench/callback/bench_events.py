# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Benchmark callback: one JSON line per task start and per host/item result, with the controller's wall clock.

Enabled by the bench harness only (``ANSIBLE_CALLBACKS_ENABLED=bench_events``); the file comes from
``RUNPOD_BENCH_EVENTS``. Results are trimmed to what the harness reads (ids, ssh, codes, timings).
"""

from __future__ import annotations

DOCUMENTATION = """
    name: bench_events
    type: notification
    short_description: timestamped task events for the runpod.cloud benchmark harness
    description: Appends one JSON line per task start and per result to the file named by RUNPOD_BENCH_EVENTS.
"""

import json  # noqa: E402 - DOCUMENTATION comes first by Ansible convention
import os  # noqa: E402
import time  # noqa: E402

from ansible.plugins.callback import CallbackBase  # noqa: E402

_SCALARS = (str, int, float, bool, type(None))
_KEEP_DICT = {
    "pod": ("id", "name", "status", "ssh", "runtime_status"),
    "json": ("id", "name", "status", "error", "ssh"),
    "wait": ("elapsed", "polls", "probes", "last_state", "last_states"),
}


def _pods(value):
    if not isinstance(value, list):
        return None
    return [{k: p.get(k) for k in ("id", "name", "ssh", "runtime_status")} for p in value if isinstance(p, dict)]


def trim(result):
    out = {}
    for key, value in result.items():
        if key.startswith("_ansible") or key == "invocation":
            continue
        if key in _KEEP_DICT and isinstance(value, dict):
            out[key] = {k: value.get(k) for k in _KEEP_DICT[key] if k in value}
            history = value.get("history") if key == "wait" else None
            if isinstance(history, list) and history and isinstance(history[-1], dict):
                out[key]["end"] = history[-1].get("elapsed")  # the wait's own length (s), for the read bound
        elif key == "pods":
            out[key] = _pods(value)
        elif key == "msg" and isinstance(value, str):
            out[key] = value[:400]
        elif isinstance(value, _SCALARS):
            out[key] = value
    return out


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "notification"
    CALLBACK_NAME = "bench_events"
    CALLBACK_NEEDS_ENABLED = True

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        path = os.environ.get("RUNPOD_BENCH_EVENTS")
        self._out = open(path, "a", encoding="utf-8") if path else None  # noqa: SIM115 - lives as long as the run

    def _emit(self, event, **fields):
        if self._out is None:
            return
        fields.update(ev=event, t=time.time())
        self._out.write(json.dumps(fields, default=str) + "\n")
        self._out.flush()

    def _result(self, event, result, **extra):
        self._emit(event, task=result._task.get_name(), host=result._host.get_name(), res=trim(result._result), **extra)

    def v2_playbook_on_task_start(self, task, is_conditional):
        self._emit("task_start", task=task.get_name())

    def v2_runner_on_ok(self, result, **kwargs):
        self._result("ok", result)

    def v2_runner_on_failed(self, result, ignore_errors=False, **kwargs):
        self._result("failed", result, ignore_errors=ignore_errors)

    def v2_runner_on_unreachable(self, result, **kwargs):
        self._result("unreachable", result)

    @staticmethod
    def _label(result):
        label = result._result.get("_ansible_item_label", result._result.get("item", ""))
        return str(label)[:200]

    def v2_runner_item_on_ok(self, result):
        self._result("item_ok", result, item=self._label(result))

    def v2_runner_item_on_failed(self, result):
        self._result("item_failed", result, item=self._label(result))

    def v2_runner_retry(self, result):
        self._emit("retry", task=result._task.get_name(), host=result._host.get_name())

    def v2_playbook_on_stats(self, stats):
        self._emit("stats")
        if self._out is not None:
            self._out.close()
            self._out = None

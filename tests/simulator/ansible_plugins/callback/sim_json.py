# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""A stdout callback printing one JSON document per run, shaped like ansible.posix.json (not installed here).

Used by the integration tests' ``run_playbook`` helper: ``{"plays": [{"play": {...}, "tasks": [{"task": {"name"},
"hosts": {host: result}}]}], "stats": {host: {...}}}``.
"""

from __future__ import annotations

DOCUMENTATION = """
    name: sim_json
    type: stdout
    short_description: JSON output for the runpod.cloud integration tests
    description: Prints every task result of the run as one JSON document at the end.
"""

import json  # noqa: E402 - DOCUMENTATION comes first by Ansible convention

from ansible.parsing.ajson import AnsibleJSONEncoder  # noqa: E402
from ansible.plugins.callback import CallbackBase  # noqa: E402


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "stdout"
    CALLBACK_NAME = "sim_json"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.results = []
        # (task id, host) -> whether each loop item failed, in order: ansible-core 2.21 gives callbacks the loop's
        # item results without their "failed" key, which the registered variable (what a playbook sees) keeps.
        self.item_failed = {}

    def _new_play(self, play):
        return {"play": {"name": play.get_name(), "id": str(play._uuid)}, "tasks": []}

    def _new_task(self, task):
        return {"task": {"name": task.get_name(), "id": str(task._uuid), "action": task.action}, "hosts": {}}

    def v2_playbook_on_play_start(self, play):
        self.results.append(self._new_play(play))

    def v2_playbook_on_task_start(self, task, is_conditional):
        self.results[-1]["tasks"].append(self._new_task(task))

    def v2_playbook_on_handler_task_start(self, task):
        self.results[-1]["tasks"].append(self._new_task(task))

    def _item(self, result, failed):
        self.item_failed.setdefault((str(result._task._uuid), result._host.get_name()), []).append(failed)

    def v2_runner_item_on_ok(self, result):
        self._item(result, False)

    def v2_runner_item_on_failed(self, result):
        self._item(result, True)

    def v2_runner_item_on_skipped(self, result):
        self._item(result, False)

    def _record(self, result, **extra):
        host = result._host.get_name()
        payload = dict(result._result)
        payload.update(extra)
        # The task's deprecations on stderr, as the default callback shows them (tests/helpers/playbooks.py fails a run
        # on one); a copy, so the report keeps them.
        self._handle_warnings({"deprecations": payload.get("deprecations")})
        failed = self.item_failed.pop((str(result._task._uuid), host), [])
        if isinstance(payload.get("results"), list) and len(failed) == len(payload["results"]):
            payload["results"] = [
                {**item, "failed": True} if was_failed and isinstance(item, dict) else item
                for item, was_failed in zip(payload["results"], failed, strict=True)
            ]
        task_name = result._task.get_name()
        tasks = self.results[-1]["tasks"] if self.results else []
        for entry in reversed(tasks):
            if entry["task"]["id"] == str(result._task._uuid):
                entry["hosts"][host] = payload
                return
        if self.results:
            entry = {
                "task": {"name": task_name, "id": str(result._task._uuid), "action": result._task.action},
                "hosts": {host: payload},
            }
            self.results[-1]["tasks"].append(entry)

    def v2_runner_on_ok(self, result, **kwargs):
        self._record(result)

    def v2_runner_on_failed(self, result, ignore_errors=False, **kwargs):
        self._record(result, failed=True, ignore_errors=ignore_errors)

    def v2_runner_on_unreachable(self, result, **kwargs):
        self._record(result, unreachable=True)

    def v2_runner_on_skipped(self, result, **kwargs):
        self._record(result, skipped=True)

    def v2_playbook_on_stats(self, stats):
        summary = {host: stats.summarize(host) for host in sorted(stats.processed)}
        output = {"plays": self.results, "stats": summary}
        self._display.display(json.dumps(output, cls=AnsibleJSONEncoder, indent=2, sort_keys=True))

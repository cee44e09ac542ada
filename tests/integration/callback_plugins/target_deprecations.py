# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The deprecations the targets' tasks carry, printed as ansible-core prints one.

ansible-test runs every target with ``ANSIBLE_DEPRECATION_WARNINGS=false`` (its environment beats any ansible.cfg),
so a deprecation would otherwise go unseen; ``tests/integration/integration.cfg`` puts this directory on the
callback path, where a notification callback loads without being enabled, and ``hack/integration_targets.py``
fails the run on the line. A task's deprecations only: one ansible-core prints outside a task stays hidden.
"""

from __future__ import annotations

DOCUMENTATION = """
    name: target_deprecations
    type: notification
    short_description: the deprecations of the runpod.cloud targets' tasks on the display
    description: Prints each deprecation a task result carries, whatever deprecation_warnings says.
"""

from ansible.plugins.callback import CallbackBase  # noqa: E402 - DOCUMENTATION comes first by Ansible convention

DEPRECATION = "[DEPRECATION WARNING]"  # what tests/helpers/playbooks.py and hack/integration_targets.py look for


def message(entry):
    """The text of one entry of a result's ``deprecations``: a dict before ansible-core 2.19, either since."""
    if isinstance(entry, dict):
        return entry.get("msg", entry)
    return getattr(getattr(entry, "event", None), "msg", entry)


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "notification"
    CALLBACK_NAME = "target_deprecations"

    def _show(self, result):
        for entry in result._result.get("deprecations") or ():
            self._display.display(f"{DEPRECATION}: {message(entry)} (task {result._task.get_name()})", stderr=True)

    def v2_runner_on_ok(self, result, **kwargs):
        self._show(result)

    def v2_runner_on_failed(self, result, ignore_errors=False, **kwargs):
        self._show(result)

    def v2_runner_on_skipped(self, result, **kwargs):
        self._show(result)

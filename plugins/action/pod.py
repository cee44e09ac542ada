# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Action plugin of runpod.cloud.pod: the wait runs on the controller and shows its progress; after a
``wait_for: login`` it arms the pod's lease watchdog over the same kind of login (docs/watchdog.md)."""

from __future__ import annotations

from ansible.utils.display import Display

from ansible_collections.runpod.cloud.plugins.module_utils._module.pod_waiter import PodWaiter
from ansible_collections.runpod.cloud.plugins.plugin_utils import _watchdog
from ansible_collections.runpod.cloud.plugins.plugin_utils._wait_action import LOCAL_TRANSPORTS, WaitingAction


class ActionModule(WaitingAction):
    waiter_class = PodWaiter

    def run(self, tmp=None, task_vars=None):
        result = super().run(tmp, task_vars)
        # The controller logs in where it ran the task itself; a task delegated elsewhere logged in from there.
        local = getattr(self._connection, "transport", None) in LOCAL_TRANSPORTS
        if local and not self._task.check_mode and _watchdog.wanted(self._task.args, result):
            result["watchdog"] = _watchdog.arm(result["pod"], self._task.args["ssh_private_key_file"])
            if not result["watchdog"]["armed"] and "has no lease" not in result["watchdog"]["detail"]:
                Display().warning(f"pod {result['pod'].get('id')} runs without its lease watchdog: "
                                  f"{result['watchdog']['detail']}")
        return result

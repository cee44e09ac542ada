# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Action plugin of runpod.cloud.pod_info: the batch wait runs on the controller and shows its progress."""

from __future__ import annotations

from ansible_collections.runpod.cloud.plugins.module_utils._module.pod_waiter import PodsWaiter
from ansible_collections.runpod.cloud.plugins.plugin_utils._wait_action import WaitingAction


class ActionModule(WaitingAction):
    waiter_class = PodsWaiter

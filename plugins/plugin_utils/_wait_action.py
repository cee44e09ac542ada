# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This plugin_utils file is private to runpod.cloud and may change without notice.
"""The action plugin of every waiting module: live progress while the wait runs on the controller.

When the task runs on the controller (local connection, no ``async``, the controller's Python has httpx
and pydantic, and knows the api key), the module is run with the handoff asked for: it does everything
but the wait and returns, and the wait runs here: the action builds the module's own waiter (``waiter_class``:
``_module.pod_waiter``, ``endpoint_waiter``, ``cluster_waiter``, ``batch``), with the engine's lines going to
Ansible's display as they happen. Otherwise the module runs and waits by itself. See docs/dev/architecture.md,
"Waiters".
"""

from __future__ import annotations

import os

from ansible.module_utils.parsing.convert_bool import boolean
from ansible.plugins.action import ActionBase
from ansible.utils.display import Display
from ansible.utils.unsafe_proxy import wrap_var
from ansible.utils.vars import merge_hash

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import HAS_HTTPX
from ansible_collections.runpod.cloud.plugins.module_utils._api.inputs import HAS_PYDANTIC
from ansible_collections.runpod.cloud.plugins.module_utils._module.base import (
    HANDOFF_ENV,
    HANDOFF_KEY,
    hide_secrets,
    key_fingerprint,
)
from ansible_collections.runpod.cloud.plugins.module_utils._module.controller import resume_wait
from ansible_collections.runpod.cloud.plugins.module_utils._module.specs import SECRET_OPTIONS
from ansible_collections.runpod.cloud.plugins.plugin_utils._known_hosts import DEFAULT_DIR, with_ssh_args
from ansible_collections.runpod.cloud.plugins.plugin_utils._local_command import run_local

display = Display()

API_KEY_ENV = "RUNPOD_API_KEY"
# Set to false on the controller to make every module wait by itself (no live lines).
CONTROLLER_WAIT_ENV = "RUNPOD_CLOUD_CONTROLLER_WAIT"
LOCAL_TRANSPORTS = ("local", "ansible.builtin.local")


def task_secrets(args):
    """The task's values a log line must not show: its ``env`` values and its secret options (``SECRET_OPTIONS``; the
    module side adds Ansible's no_log values)."""
    env = args.get("env")
    found = list(env.values()) if isinstance(env, dict) else []
    found.extend(args.get(key) for key in SECRET_OPTIONS)
    return [value for value in found if isinstance(value, (str, int, float)) and not isinstance(value, bool)]


def unsafe_logs(value):
    """``value`` with every ``logs`` block marked unsafe: RunPod's log lines are data, never a template (a module's
    own result reaches Ansible as JSON; this result is built here, so it is marked here)."""
    if isinstance(value, dict):
        return {key: wrap_var(item) if key == "logs" else unsafe_logs(item) for key, item in value.items()}
    if isinstance(value, list):
        return [unsafe_logs(item) for item in value]
    return value


class ProgressLines:
    """The engine's lines on Ansible's display: compact by default, the elapsed time of each change at -v."""

    def __init__(self, kind: str, name: str | None, resource_id: str | None) -> None:
        self.subject = f"{kind} {name} ({resource_id})" if name else f"{kind} {resource_id}"

    def line(self, text: str) -> None:
        display.display(text)

    def transition(self, entry: dict) -> None:
        # A batch wait's entries name their own pod (``_pollers.BatchLines``).
        subject = entry.get("subject", self.subject)
        if display.verbosity >= 1:
            display.display(f"{subject}: {entry['state']} [+{entry['elapsed']:.1f}s]")
        else:
            display.display(f"{subject}: {entry['state']}")


class WaitingAction(ActionBase):
    """Subclasses set ``waiter_class`` (the waiter the module composes, e.g. ``PodWaiter``)."""

    _supports_check_mode = True
    _supports_async = True
    waiter_class: type | None = None

    def run(self, tmp=None, task_vars=None):
        result = super().run(tmp, task_vars)
        del tmp
        wrap_async = self._task.async_val and not self._connection.has_native_async
        api_key = None if wrap_async else self._controller_api_key()
        if api_key is None:
            module_result = self._execute_module(task_vars=task_vars, wrap_async=wrap_async)
        else:
            module_result = self._run_handing_off(task_vars, api_key)
        result = merge_hash(result, module_result)
        # The hand-off's host key settings are the controller's: its ssh connects (_known_hosts.with_ssh_args).
        args = self._task.args
        with_ssh_args(result, args.get("known_hosts_dir") or DEFAULT_DIR, args.get("ssh_private_key_file"))
        if not wrap_async:
            self._remove_tmp_path(self._connection._shell.tmpdir)
        return result

    def _controller_api_key(self):
        """The api key the controller would wait with, or None when the module must wait by itself."""
        args = self._task.args
        if not boolean(os.environ.get(CONTROLLER_WAIT_ENV, "true"), strict=False):
            return None
        if not (HAS_HTTPX and HAS_PYDANTIC) or self._task.check_mode or self._play_context.check_mode:
            return None
        if getattr(self._connection, "transport", None) not in LOCAL_TRANSPORTS:
            return None  # delegated to, or running on, another host: the module waits there
        try:
            if not boolean(args.get("wait", False), strict=False):
                return None
        except TypeError:
            return None
        environment = {}
        self._compute_environment_string(raw_environment_out=environment)
        api_key = args.get("api_key") or environment.get(API_KEY_ENV) or os.environ.get(API_KEY_ENV)
        if not (isinstance(api_key, str) and api_key):
            return None
        hide_secrets([api_key])  # the controller's lines and results never show it (ansible-core 2.22 masks it)
        return api_key

    def _run_handing_off(self, task_vars, api_key):
        original = self._task.environment
        environments = list(original) if isinstance(original, list) else ([original] if original else [])
        self._task.environment = [*environments, {HANDOFF_ENV: key_fingerprint(api_key)}]
        try:
            module_result = self._execute_module(task_vars=task_vars)
        finally:
            self._task.environment = original
        handoff = module_result.get(HANDOFF_KEY)
        if not isinstance(handoff, dict) or module_result.get("failed"):
            module_result.pop(HANDOFF_KEY, None)
            return module_result  # the module waited by itself, or did not get to the wait
        lines = None
        if not self._play_context.no_log:
            lines = ProgressLines(self.waiter_class.kind, handoff.get("name"), handoff.get("id"))
        result = resume_wait(
            self.waiter_class,
            module_result,
            api_key,
            progress=lines.line if lines else None,
            on_transition=lines.transition if lines else None,
            secrets=task_secrets(self._task.args),
            run_command=run_local,
        )
        return unsafe_logs(result)

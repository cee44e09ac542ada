# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""``Waiter``: one wait of one kind of resource, on a host that is the module or the task resumed on the controller;
it ends through the host's one failure path, so its result is the same on both (docs/dev/architecture.md, "Waiters")."""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from types import SimpleNamespace
from typing import Any, NoReturn

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._engine import outcome as _outcome
from ansible_collections.runpod.cloud.plugins.module_utils._engine import poll as _wait
from ansible_collections.runpod.cloud.plugins.module_utils._module import base as _base
from ansible_collections.runpod.cloud.plugins.module_utils._module import specs as _specs


class Waiter:
    """Subclasses set ``kind``, ``module`` (for hints) and ``result_key``, and implement ``wait_for`` or ``resume``."""

    kind = "resource"
    rerun_resumes = True  # a rerun finds what the wait kept by name and waits again (a job's would submit another)
    module = ""
    result_key = ""

    def __init__(self, host: _base.RunPodModule, progress: Callable | None = None,
                 on_transition: Callable | None = None):
        self.host = host
        # Where the engine's lines go: ``progress(line)`` and ``on_transition(entry)`` (the controller's display).
        self.progress = progress
        self.on_transition = on_transition
        # Set once the task created or started the resource (the handoff carries it): a failure names it.
        self.touched_id: str | None = None

    def remedy(self, resource_id: str) -> str:
        """What a failure says of a resource the task kept: how to inspect or delete it."""
        return _base.kept_remedy(self.kind, resource_id, self.module, f"id={resource_id}")

    def info_hint(self, resource_id: str) -> str:
        return _base.info_hint(self.module, f"id={resource_id}")

    def delete_hint(self, resource_id: str) -> str:
        return _base.delete_hint(self.module, f"id={resource_id}")

    def last_known_state(self) -> str:
        return "unknown"

    def resume(self, handoff: dict) -> None:
        """On the controller: the wait ``hand_off`` handed over (default: the one resource it names)."""
        self.touched_id = handoff.get("touched_id")
        self.wait_for(SimpleNamespace(id=handoff["id"], name=handoff.get("name")))

    def wait_for(self, resource: Any) -> None:
        """Block until ``resource`` is ready (with ``self.until``); set ``result["wait"]``."""
        raise NotImplementedError

    def fail_unexpected(self, error: RunPodError) -> NoReturn:
        """An API error nobody handled during a resumed wait: as the module fails it (``fail_touched``)."""
        if not self.touched_id:
            self.host.fail_unexpected(error)
        self.host.fail_kept(error, "RunPod API error", self.kind, self.touched_id, self.last_known_state(),
                            self.remedy(self.touched_id))

    # What ``log_report`` uses of the task that waits, and the secrets the action plugin passed (never handed off).
    log_secrets: list = []

    params = property(attrgetter("host.params"))
    no_log_values = property(attrgetter("host.no_log_values"))
    backend = property(attrgetter("host.backend"))

    def fail(self, msg, **extra):
        self.host.fail(msg, **extra)

    def until(
        self, poller: _wait.Poller, *, label, resource_id, describe_last, probe_interval=0.25, explain_failure=None,
        timeout=None, failure_logs=None, live_logs=None,
    ):
        """The poll engine, SIGINT/SIGTERM wired to ``wait_interrupted``. ``describe_last()``: the resource(s) for a
        failure; ``explain_failure(error) -> (msg, extra) or None`` replaces its message; ``failure_logs(error, extra)
        -> msg suffix``; ``live_logs()`` after each poll that was not ready."""
        settings = self.host.wait_options
        timeout = settings.timeout if timeout is None else timeout
        token = _outcome.CancelToken()
        # Pollers cap their probe reads at the wait's deadline (monotonic, like the engine's clock).
        poller.deadline = _wait.SystemClock().now() + timeout
        # The wait's reads wait for RunPod's quota only as long as the wait may last (docs/pods.md, quotas).
        _specs.set_budget(self.host.backend, timeout, f"wait_timeout {self.host.params.get('wait_timeout')}")
        try:
            with _outcome.cancel_on_signals(token):
                return _wait.until(
                    poller if live_logs is None else _with_live_logs(poller, live_logs),
                    label=label,
                    timeout=timeout,
                    interval=settings.interval,
                    cancel=token,
                    probe_interval=probe_interval,
                    resource_id=resource_id,
                    progress=self.progress,
                    on_transition=self.on_transition,
                    timeout_text=given if isinstance(given := self.host.params.get("wait_timeout"), str) else None,
                    kept=(f"the {self.kind}" + ("" if resource_id else "s")) if self.rerun_resumes else None,
                )
        except _outcome.WaitError as error:
            self.host.result[self.result_key] = describe_last()
            gone = error.code == "not_found" and poller.lost()
            remedy = _base.gone_remedy(self.kind, resource_id) if gone else self.remedy(resource_id)
            msg, extra = f"{error}; {remedy}", {}
            explained = explain_failure(error) if explain_failure is not None else None
            if explained is not None:  # None: the default message
                msg, extra = explained
            # An explanation may say what the failure is (a strict host key wait that timed out is unverified).
            code = extra.pop("code", error.code)
            if failure_logs is not None:
                msg += failure_logs(error, extra)
            self.host.fail(msg, code=code, status=error.status, resource_id=resource_id, wait=error.as_dict(), **extra)


def _with_live_logs(poller, live_logs):
    """``poller`` with ``live_logs()`` after each poll that was not ready (the engine calls the poller only)."""

    def polled():
        result = poller()
        if not result.ready:
            live_logs()
        return result

    return polled

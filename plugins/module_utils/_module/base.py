# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""``RunPodModule``: what every runpod.cloud module shares: the backend, option checks, the one failure path, waits."""

from __future__ import annotations

import os
import traceback
from collections.abc import Callable
from typing import Any, NoReturn

from ansible.module_utils.basic import missing_required_lib

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import (
    HAS_HTTPX,
    HTTPX_IMPORT_ERROR,
    RunPodError,
)
from ansible_collections.runpod.cloud.plugins.module_utils._api.models import (
    HAS_PYDANTIC,
    PYDANTIC_IMPORT_ERROR,
)
from ansible_collections.runpod.cloud.plugins.module_utils._backend.account import account_api
from ansible_collections.runpod.cloud.plugins.module_utils._backend.core import resolve_options, transport_warnings
from ansible_collections.runpod.cloud.plugins.module_utils._backend.factory import make_backend
from ansible_collections.runpod.cloud.plugins.module_utils._engine import duration as _duration
from ansible_collections.runpod.cloud.plugins.module_utils._engine import outcome as _outcome
from ansible_collections.runpod.cloud.plugins.module_utils._engine import poll as _wait
from ansible_collections.runpod.cloud.plugins.module_utils._module import budget as _budget
from ansible_collections.runpod.cloud.plugins.module_utils._module.handoff import (
    HANDOFF_ENV,
    HANDOFF_KEY,
    HANDOFF_OPTIONS,
    key_fingerprint,
)
from ansible_collections.runpod.cloud.plugins.module_utils._module.specs import CONNECTION_KEYS, WaitSettings


class RunPodModule:
    """Base for runpod.cloud modules: builds the backend and owns the single failure path.

    Subclasses set ``result_key`` (the resource key in the result, e.g. ``pod``) and implement ``run()``.
    """

    result_key: str = ""
    # What a failure message tells the user to do with a resource this module created (see resource_remedy).
    resource_kind = "resource"
    module: Any  # the AnsibleModule
    result: dict[str, Any]
    wait_settings: WaitSettings | None
    # Whether the action plugin may take this module's wait to the controller (see HANDOFF_ENV).
    controller_wait = False
    # Where the engine's lines go: ``progress(line)`` and ``on_transition(entry)`` (the controller's display).
    progress = None
    on_transition = None

    def __init__(self, module: Any) -> None:
        if not self.result_key:
            raise NotImplementedError("RunPodModule subclasses must set result_key")
        self.module = module
        self.result = {"changed": False, self.result_key: None}
        for available, lib, error in (
            (HAS_HTTPX, "httpx", HTTPX_IMPORT_ERROR),
            (HAS_PYDANTIC, "pydantic", PYDANTIC_IMPORT_ERROR),
        ):
            if not available:
                module.fail_json(msg=missing_required_lib(lib), exception=error)
        self._check_connection_options()
        self.wait_settings = self._parse_wait_options()
        self._backend: Any = None

    # --- construction --------------------------------------------------------------------------
    @property
    def wait_options(self) -> WaitSettings:
        """The parsed wait options of a module that waits (a module without wait options has none to use)."""
        if self.wait_settings is None:
            raise TypeError(f"{type(self).__name__} has no wait options")
        return self.wait_settings

    @property
    def backend(self):
        # Built lazily so option checks that fail run before any client exists.
        if self._backend is None:
            options = {key: self.module.params.get(key) for key in CONNECTION_KEYS}
            self._backend = make_backend(options)
            _budget.report_pauses(self, self._backend)  # "quota: 0 of 60 left this minute, resuming in 41 s"
        return self._backend

    @property
    def account(self):
        """Network volumes, registry credentials, SSH keys and billing (``_account``), over the backend's client."""
        return account_api(self.backend)

    def _check_connection_options(self):
        """Refuse unusable connection options and warn about ones that expose the key, before any request."""
        try:
            resolved = resolve_options({key: self.module.params.get(key) for key in CONNECTION_KEYS})
        except ValueError as exc:
            self.module.fail_json(msg=str(exc), code="bad_request", changed=False)
        for warning in transport_warnings(resolved):
            self.module.warn(warning)

    def _parse_wait_options(self):
        params = self.module.params
        if "wait" not in params:
            return None
        values = {}
        for option in ("wait_timeout", "wait_interval"):
            try:
                values[option] = _duration.parse(params[option])
            except ValueError as exc:
                self.module.fail_json(msg=f"invalid {option}: {exc}", code="bad_request", changed=False)
        if values["wait_interval"] > values["wait_timeout"]:
            self.module.fail_json(
                msg=(
                    f"wait_interval ({params['wait_interval']}) must not be longer than "
                    f"wait_timeout ({params['wait_timeout']})"
                ),
                code="bad_request",
                changed=False,
            )
        return WaitSettings(
            wait=bool(params["wait"]) and not self.module.check_mode,
            timeout=values["wait_timeout"],
            interval=values["wait_interval"],
            wait_for=params.get("wait_for"),
        )

    # --- results -------------------------------------------------------------------------------
    def mark_changed(self) -> None:
        self.result["changed"] = True

    def exit(self, **extra: Any) -> NoReturn:
        self.result.update(extra)
        self.module.exit_json(**self.result)
        raise AssertionError("exit_json returned")  # pragma: no cover - exit_json exits

    def fail(
        self,
        msg: str,
        *,
        code: str,
        status: int | None = None,
        resource_id: str | None = None,
        exception: str | None = None,
        **extra: Any,
    ) -> NoReturn:
        """The one failure path: a flat, structured result with a machine-readable ``code``."""
        result = dict(self.result)
        result.update(extra)
        result["code"] = code
        if status is not None:
            result["status"] = status
        if resource_id is not None:
            result["id"] = resource_id
        if exception is not None:
            result["exception"] = exception
        self.module.fail_json(msg=msg, **result)
        raise AssertionError("fail_json returned")  # pragma: no cover - fail_json exits

    def fail_api(self, error: RunPodError, action: str, resource_id: str | None = None, **extra: Any) -> NoReturn:
        """Fail from a RunPodError: ``<action>: <what the API said> (<code>)``."""
        if getattr(error, "quota", None):
            extra.setdefault("quota", error.quota)
        self.fail(
            f"{action}: {error.message} ({error.code})",
            code=error.code,
            status=error.status,
            resource_id=resource_id,
            **extra,
        )

    def resource_remedy(self, resource_id: str) -> str:
        return (
            f"{self.resource_kind} {resource_id} was kept: inspect it with {self.info_hint(resource_id)}, "
            f"or delete it with {self.delete_hint(resource_id)}"
        )

    def gone_remedy(self, resource_id: str) -> str:
        """What a failed wait says of a resource it saw and then lost (deleted or terminated by someone else)."""
        return f"{self.resource_kind} {resource_id} no longer exists, so there is nothing left to keep or delete"

    def info_hint(self, resource_id: str) -> str:
        return f"runpod.cloud.{self.result_key}_info id={resource_id}"

    def delete_hint(self, resource_id: str) -> str:
        return f"runpod.cloud.{self.result_key} id={resource_id} state=absent"

    # --- waiting -------------------------------------------------------------------------------
    def hand_off(self, **handoff: Any) -> None:
        """Exit without waiting when the action plugin asked to run this wait on the controller (HANDOFF_ENV).

        ``handoff`` is what the wait needs besides the options and the result (ids, names); the controller
        gives it back to ``resume``.
        """
        wanted = os.environ.get(HANDOFF_ENV)
        if not (self.controller_wait and wanted and wanted == key_fingerprint(self.module.params.get("api_key"))):
            return
        params = {key: self.module.params.get(key) for key in HANDOFF_OPTIONS if key in self.module.params}
        self.exit(**{HANDOFF_KEY: dict(handoff, params=params)})

    def resume(self, handoff: dict) -> None:
        """On the controller: run the wait ``hand_off`` handed over, on the module's result (``self.result``)."""
        raise NotImplementedError

    def wait_until(
        self, poll, *, label, resource_id, describe_last, probe_interval=0.25, explain_failure=None, timeout=None
    ):
        """Run the poll engine with SIGINT/SIGTERM wired to a clean ``wait_interrupted`` failure.

        ``describe_last`` returns the resource(s) as last seen (for the failure result).
        ``explain_failure(error) -> (msg, extra result keys)`` replaces the default message, for waits
        on several resources. ``timeout`` overrides ``wait_timeout`` (what is left of it). Returns the outcome.
        """
        settings = self.wait_options
        timeout = settings.timeout if timeout is None else timeout
        token = _wait.CancelToken()
        if hasattr(poll, "deadline"):
            # Pollers cap their probe reads at the wait's deadline (monotonic, like the engine's clock).
            poll.deadline = _wait.SystemClock().now() + timeout
        # The wait's reads wait for RunPod's quota only as long as the wait may last.
        _budget.set_budget(self._backend, timeout, f"wait_timeout {self.module.params.get('wait_timeout')}")
        try:
            with _wait.cancel_on_signals(token):
                return _wait.until(
                    poll,
                    label=label,
                    timeout=timeout,
                    interval=settings.interval,
                    cancel=token,
                    probe_interval=probe_interval,
                    resource_id=resource_id,
                    progress=self.progress,
                    on_transition=self.on_transition,
                )
        except _outcome.WaitError as error:
            self.result[self.result_key] = describe_last()
            gone = error.code == "not_found" and getattr(getattr(poll, "misses", None), "ever_seen", False)
            remedy = self.gone_remedy(resource_id) if gone else self.resource_remedy(resource_id)
            msg, extra = f"{error}; {remedy}", {}
            if explain_failure is not None:
                msg, extra = explain_failure(error)
            self.fail(
                msg,
                code=error.code,
                status=getattr(error, "status", None),
                resource_id=resource_id,
                wait=error.as_dict(),
                **extra,
            )

    def select(
        self, read: Callable[[str], Any], find_by_name: Callable[[str], list], list_all: Callable[[], list]
    ) -> list:
        """What an ``_info`` task asks for: the ``id`` option's resource (an unknown id gives ``[]``), else the
        resources named ``name``, else all of them. An API error fails with ``reading <kind>s failed: ...``."""
        params = self.module.params
        try:
            if params.get("id"):
                try:
                    return [read(params["id"])]
                except RunPodError as error:
                    if error.code == "not_found":
                        return []
                    raise
            if params.get("name"):
                return find_by_name(params["name"])
            return list_all()
        except RunPodError as error:
            self.fail_api(error, f"reading {self.resource_kind}s failed")

    def fail_unexpected(self, error: RunPodError) -> NoReturn:
        """An API error nobody handled: the structured failure, never a bare traceback."""
        self.fail(
            f"RunPod API error: {error.message} ({error.code})",
            code=error.code,
            status=error.status,
            exception=traceback.format_exc(),
        )


def run_module(module_class, module) -> None:
    """Entry point of every module: turn unexpected API errors into the structured failure."""
    runner = module_class(module)
    try:
        runner.run()
    except RunPodError as error:
        runner.fail_unexpected(error)

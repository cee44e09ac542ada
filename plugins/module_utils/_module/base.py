# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""``RunPodModule``: what every module shares: the backend, option checks, the one failure path and its hints, the
handoff of its wait. One file, as every module imports all of it (docs/dev/architecture.md, "Import cost")."""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import os
import sys
import traceback
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NoReturn

from ansible.module_utils.basic import missing_required_lib

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import HAS_HTTPX, HTTPX_IMPORT_ERROR, RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._backend.connection import (
    make_backend,
    resolve_options,
    transport_warnings,
)
from ansible_collections.runpod.cloud.plugins.module_utils._module import specs as _specs
from ansible_collections.runpod.cloud.plugins.module_utils._vocab import duration as _duration
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.record import spec_problem

# pydantic is imported (by ``_api.inputs``, its guard) only by the modules whose input rules use it: a
# read-only task never pays for it (docs/dev/architecture.md, "Import cost").
_PYDANTIC_GUARD = "ansible_collections.runpod.cloud.plugins.module_utils._api.inputs"


# The handoff of a wait to the controller (docs/dev/architecture.md, "Waits on the controller"). The value is the
# fingerprint of the api key the controller will wait with: a module that resolved another key waits by itself.
HANDOFF_ENV = "RUNPOD_CLOUD_WAIT_HANDOFF"
HANDOFF_KEY = "_runpod_wait_handoff"
# What a handoff carries of the module's options: every option a waiter reads, never the api key.
HANDOFF_OPTIONS = (*(key for key in _specs.CONNECTION_KEYS if key != "api_key"), "state", "wait", "wait_timeout",
                   "wait_interval", "wait_for", "name", "id", "pod_count", "logs", "host_key_checking",
                   "ssh_private_key_file")


def key_fingerprint(api_key: str | None) -> str:
    """A one-way fingerprint of the api key: tells the module the controller waits with the same key."""
    return hashlib.sha256(str(api_key or "").encode("utf-8")).hexdigest()


# The tasks a failure message names (tests/unit checks each exists).
INFO_MODULES = {name: f"{name}_info" for name in ("pod", "endpoint", "cluster", "network_volume", "secret")}


def info_hint(module: str, selector: str) -> str:
    """The task that shows the resource ``selector`` (``id=<id>`` or ``name=<name>``) of ``module``."""
    info = INFO_MODULES.get(module)
    return f"runpod.cloud.{info} {selector}" if info else f"runpod.cloud.{module} {selector} in check mode"


def delete_hint(module: str, selector: str) -> str:
    return f"runpod.cloud.{module} {selector} state=absent"


def kept_remedy(kind: str, resource_id: str, module: str, selector: str) -> str:
    """What a failure says of a resource this task created and kept."""
    return (f"{kind} {resource_id} was kept: inspect it with {info_hint(module, selector)}, "
            f"or delete it with {delete_hint(module, selector)}")


def gone_remedy(kind: str, resource_id: str) -> str:
    """What a failed wait says of a resource it saw and then lost (deleted or terminated by someone else)."""
    return f"{kind} {resource_id} no longer exists, so there is nothing left to keep or delete"


# Options whose value is a public key: masked in a refusal (a private key pasted there must show nowhere).
KEY_OPTIONS = ("ssh_public_key", "key")


def input_problem(model: Any, params: dict) -> tuple[Any, str | None]:
    """``(validated input, None)`` or ``(None, message)`` for a module's params checked against ``model``."""
    try:
        return model.model_validate({key: params.get(key) for key in model.model_fields}), None
    except ValueError as error:
        return None, spec_problem(error)


def check_input(runner: Any, model: Any) -> Any:
    """The validated input, or ``bad_request``; a refusal shows no key option's value (nor any line of it)."""
    params = runner.module.params
    validated, problem = input_problem(model, params)
    if problem is None:
        return validated
    # Here, not at the top: a read-only task (billing_info) checks its input without the value checks.
    from ansible_collections.runpod.cloud.plugins.module_utils._api.values import secret_suspects

    hide_secrets([line for key in KEY_OPTIONS for line in secret_suspects(params.get(key))], runner.module)
    runner.fail(problem, code="bad_request")


def hide_secrets(values: Iterable[Any], module: Any = None, import_module: Callable = importlib.import_module) -> None:
    """Keep secrets a task got or made out of every output (docs/dev/architecture.md, "Secrets registered")."""
    texts = [str(value) for value in values if value not in (None, "")]
    getattr(module, "no_log_values", set[str]()).update(texts)  # what exit_json hides before 2.22; the log maskers too
    with contextlib.suppress(ImportError):  # ansible-core 2.16 to 2.21 have no secret masker
        import_module("ansible.module_utils.secrets").register_secrets(texts)


def missing_libraries() -> list[tuple[str, str | None]]:
    """The required libraries this module process lacks: httpx always; pydantic where an import needed it."""
    missing = [] if HAS_HTTPX else [("httpx", HTTPX_IMPORT_ERROR)]
    compat = sys.modules.get(_PYDANTIC_GUARD)
    if compat is not None and not compat.HAS_PYDANTIC:
        missing.append(("pydantic", compat.PYDANTIC_IMPORT_ERROR))
    return missing


class Report:
    """Where a module's warnings and its end go: the AnsibleModule (a fleet member and a resumed wait collect)."""

    def __init__(self, module: Any) -> None:
        self.module = module

    def warn(self, warning: str) -> None:
        self.module.warn(warning)

    def fail(self, msg: str, result: dict) -> None:
        self.module.fail_json(msg=msg, **result)

    def exit(self, result: dict) -> None:
        self.module.exit_json(**result)


class RunPodModule:
    """Subclasses set ``result_key`` and implement ``run()``. ``params``, ``report`` and ``backend`` are given to a
    fleet member (its own options, the task's backend) and on the controller, where ``module`` is None."""

    result_key: str = ""
    resource_kind = "resource"
    module: Any  # the AnsibleModule
    result: dict[str, Any]
    wait_settings: _specs.WaitSettings | None
    # The module's wait (``_module.waiter.Waiter``), which the action plugin may take to the controller.
    waiter: Any = None
    # The ``_backend`` resource classes the task reaches (``Secrets``, ...): its backend builds those only, and the
    # module imports them, so its AnsiballZ zip holds no other resource's code (docs/dev/architecture.md).
    uses: tuple = ()

    def __init__(self, module: Any, *, params: dict | None = None, report: Report | None = None,
                 backend: Any = None, result_key: str | None = None, run_command: Any = None) -> None:
        if result_key:
            self.result_key = result_key
        if not self.result_key:
            raise NotImplementedError("RunPodModule subclasses must set result_key")
        self.module = module
        self.params = module.params if params is None else params
        self.check_mode = bool(module is not None and module.check_mode)
        self.report = Report(module) if report is None else report
        self.result = {"changed": False, self.result_key: None}
        for lib, error in missing_libraries():
            self.report.fail(missing_required_lib(lib), {"exception": error})
        self._check_connection_options()
        self.wait_settings = self._parse_wait_options()
        self._backend: Any = backend
        # Starts a local tool (ssh-keyscan, ssh): the module's run_command, or the controller's runner.
        self._run_command = run_command

    @property
    def wait_options(self) -> _specs.WaitSettings:
        if self.wait_settings is None:
            raise TypeError(f"{type(self).__name__} has no wait options")
        return self.wait_settings

    @property
    def backend(self):
        # Built lazily so option checks that fail run before any client exists.
        if self._backend is None:
            options = {key: self.params.get(key) for key in _specs.CONNECTION_KEYS}
            self._backend = make_backend(options, uses=(*self.uses, *getattr(self.waiter, "uses", ())))
            _specs.report_pauses(self, self._backend)  # "quota: 0 of 60 left this minute, resuming in 41 s"
        return self._backend

    @property
    def account(self):
        return self.backend.account

    def warn(self, warning: str) -> None:
        self.report.warn(warning)

    def run_command(self, argv: Sequence[str]) -> tuple[int, str, str]:
        """Run a local tool: ``(rc, stdout, stderr)``; ``OSError`` when it cannot start (the caller says so)."""
        if self._run_command is not None:
            return self._run_command(argv)
        return self.module.run_command(list(argv), handle_exceptions=False)

    @property
    def no_log_values(self) -> Any:
        return getattr(self.module, "no_log_values", None) or ()

    def _check_connection_options(self):
        """Refuse unusable connection options and warn about ones that expose the key, before any request."""
        if not self.params.get("api_key"):  # here, not required=True: Ansible's message never names the variable
            self.report.fail("no RunPod API key: set api_key (per play: module_defaults for group/runpod.cloud.all)"
                             " or RUNPOD_API_KEY in the environment", {"code": "no_credentials", "changed": False})
        try:
            resolved = resolve_options({key: self.params.get(key) for key in _specs.CONNECTION_KEYS})
        except ValueError as exc:
            self.report.fail(str(exc), {"code": "bad_request", "changed": False})
        for warning in transport_warnings(resolved):
            self.warn(warning)

    def _parse_wait_options(self):
        params = self.params
        if "wait" not in params:
            return None
        values = {}
        for option in ("wait_timeout", "wait_interval"):
            try:
                values[option] = _duration.parse(params[option])
            except ValueError as exc:
                self.report.fail(f"invalid {option}: {exc}", {"code": "bad_request", "changed": False})
        if values["wait_interval"] > values["wait_timeout"]:
            self.report.fail(f"wait_interval ({params['wait_interval']}) must not be longer than wait_timeout "
                             f"({params['wait_timeout']})", {"code": "bad_request", "changed": False})
        return _specs.WaitSettings(bool(params["wait"]) and not self.check_mode, values["wait_timeout"],
                                   values["wait_interval"], params.get("wait_for"))

    def mark_changed(self) -> None:
        self.result["changed"] = True

    def exit(self, **extra: Any) -> NoReturn:
        self.result.update(extra)
        self.report.exit(self.result)
        raise AssertionError("exit_json returned")  # pragma: no cover - exit_json exits

    def fail(self, msg: str, *, code: str, status: int | None = None, resource_id: str | None = None,
             exception: str | None = None, **extra: Any) -> NoReturn:
        """The one failure path: a flat, structured result with a machine-readable ``code``."""
        result = dict(self.result, **extra, code=code)
        optional = {"status": status, "id": resource_id, "exception": exception}
        result.update((key, value) for key, value in optional.items() if value is not None)
        self.report.fail(msg, result)
        raise AssertionError("fail_json returned")  # pragma: no cover - fail_json exits

    def fail_api(self, error: RunPodError, action: str, resource_id: str | None = None, **extra: Any) -> NoReturn:
        """Fail from a RunPodError: ``<action>: <what the API said> (<code>)``."""
        if getattr(error, "quota", None):
            extra.setdefault("quota", error.quota)
        self.fail(f"{action}: {error.message} ({error.code})", code=error.code, status=error.status,
                  resource_id=resource_id, **extra)

    def fail_kept(self, error: RunPodError, action: str, kind: str, resource_id: str, state: str,
                  remedy: str) -> NoReturn:
        """An API error after this task created or started a resource: changed, its last state, the remedy."""
        self.mark_changed()
        self.fail(f"{action}: {error.message} ({error.code}); the last known state of {kind} {resource_id} is "
                  f"{state}; {remedy}", code=error.code, status=error.status, resource_id=resource_id)

    def selector(self, resource_id: str) -> str:
        return f"id={resource_id}"

    def resource_remedy(self, resource_id: str) -> str:
        if self.waiter is not None:
            return self.waiter.remedy(resource_id)
        return kept_remedy(self.resource_kind, resource_id, self.result_key, self.selector(resource_id))

    def hand_off(self, **handoff: Any) -> None:
        """Exit before the wait when the action plugin runs it (HANDOFF_ENV); ``handoff`` goes to ``resume``."""
        wanted = os.environ.get(HANDOFF_ENV)
        if not (self.waiter is not None and wanted and wanted == key_fingerprint(self.params.get("api_key"))):
            return
        params = {key: self.params.get(key) for key in HANDOFF_OPTIONS if key in self.params}
        self.exit(**{HANDOFF_KEY: dict(handoff, params=params)})

    def select(self, read: Callable[[str], Any], find_by_name: Callable[[str], list],
               list_all: Callable[[], list]) -> list:
        """What an ``_info`` task asks for: by ``id`` (an unknown one gives ``[]``), else by ``name``, else all."""
        params = self.params
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
        self.fail(f"RunPod API error: {error.message} ({error.code})", code=error.code, status=error.status,
                  exception=traceback.format_exc())


def run_module(module_class, module) -> None:
    """Entry point of every module: turn unexpected API errors into the structured failure."""
    runner = module_class(module)
    try:
        runner.run()
    except RunPodError as error:
        runner.fail_unexpected(error)

# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""Ansible glue shared by every runpod.cloud module: argument specs, backend, one failure path."""

from __future__ import annotations

import copy
import traceback

from ansible.module_utils.basic import env_fallback, missing_required_lib

from ansible_collections.runpod.cloud.plugins.module_utils import _duration, _wait
from ansible_collections.runpod.cloud.plugins.module_utils._backend import (
    make_backend,
    resolve_options,
    transport_warnings,
)
from ansible_collections.runpod.cloud.plugins.module_utils._client import (
    HAS_HTTPX,
    HTTPX_IMPORT_ERROR,
    RunPodError,
)
from ansible_collections.runpod.cloud.plugins.module_utils._models import (
    HAS_PYDANTIC,
    PYDANTIC_IMPORT_ERROR,
)

# Paired with plugins/doc_fragments/auth.py: change both together.
AUTH_ARGUMENT_SPEC = dict(
    api_key=dict(type="str", required=True, no_log=True, fallback=(env_fallback, ["RUNPOD_API_KEY"])),
    api_version=dict(type="str", choices=["v2", "v1"], default="v2", fallback=(env_fallback, ["RUNPOD_API_VERSION"])),
    api_url=dict(type="str", fallback=(env_fallback, ["RUNPOD_API_URL"])),
    graphql_url=dict(type="str", fallback=(env_fallback, ["RUNPOD_GRAPHQL_URL"])),
    serverless_url=dict(type="str", fallback=(env_fallback, ["RUNPOD_SERVERLESS_URL"])),
    validate_certs=dict(type="bool", default=True),
    request_timeout=dict(type="float", default=30.0),
)

# Paired with plugins/doc_fragments/wait.py (DOCUMENTATION).
WAIT_ARGUMENT_SPEC = dict(
    wait=dict(type="bool", default=False),
    wait_timeout=dict(type="raw", default="10m"),
    wait_interval=dict(type="raw", default="5s"),
)

# Paired with plugins/doc_fragments/wait.py (POD).
POD_WAIT_ARGUMENT_SPEC = dict(
    wait_for=dict(type="str", choices=["ssh", "running"], default="ssh"),
)

CONNECTION_KEYS = tuple(AUTH_ARGUMENT_SPEC)


def argument_spec(*parts, **own):
    """Merge deep copies of the shared specs with a module's own options."""
    merged = {}
    for part in parts:
        merged.update(copy.deepcopy(part))
    merged.update(own)
    return merged


class WaitSettings:
    """Validated wait options, parsed before any API call so bad input never bills anybody."""

    def __init__(self, wait, timeout, interval, wait_for=None):
        self.wait = wait
        self.timeout = timeout
        self.interval = interval
        self.wait_for = wait_for


class RunPodModule:
    """Base for runpod.cloud modules: builds the backend and owns the single failure path.

    Subclasses set ``result_key`` (the resource key in the result, e.g. ``pod``) and implement ``run()``.
    """

    result_key = None
    # What a failure message tells the user to do with a resource this module created (see resource_remedy).
    resource_kind = "resource"

    def __init__(self, module):
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
        self._backend = None

    # --- construction --------------------------------------------------------------------------
    @property
    def backend(self):
        # Built lazily so option checks that fail run before any client exists.
        if self._backend is None:
            options = {key: self.module.params.get(key) for key in CONNECTION_KEYS}
            self._backend = make_backend(options)
        return self._backend

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
    def mark_changed(self):
        self.result["changed"] = True

    def exit(self, **extra):
        self.result.update(extra)
        self.module.exit_json(**self.result)

    def fail(self, msg, *, code, status=None, resource_id=None, exception=None, **extra):
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

    def fail_api(self, error, action, resource_id=None, **extra):
        """Fail from a RunPodError: ``<action>: <what the API said> (<code>)``."""
        self.fail(
            f"{action}: {error.message} ({error.code})",
            code=error.code,
            status=error.status,
            resource_id=resource_id,
            **extra,
        )

    def resource_remedy(self, resource_id):
        return (
            f"{self.resource_kind} {resource_id} was kept: inspect it with {self.info_hint(resource_id)}, "
            f"or delete it with {self.delete_hint(resource_id)}"
        )

    def info_hint(self, resource_id):
        return f"runpod.cloud.{self.result_key}_info id={resource_id}"

    def delete_hint(self, resource_id):
        return f"runpod.cloud.{self.result_key} id={resource_id} state=absent"

    # --- waiting -------------------------------------------------------------------------------
    def wait_until(
        self, poll, *, label, resource_id, describe_last, probe_interval=0.25, explain_failure=None, timeout=None
    ):
        """Run the poll engine with SIGINT/SIGTERM wired to a clean ``wait_interrupted`` failure.

        ``describe_last`` returns the resource(s) as last seen (for the failure result).
        ``explain_failure(error) -> (msg, extra result keys)`` replaces the default message, for waits
        on several resources. ``timeout`` overrides ``wait_timeout`` (what is left of it). Returns the outcome.
        """
        settings = self.wait_settings
        timeout = settings.timeout if timeout is None else timeout
        token = _wait.CancelToken()
        if hasattr(poll, "deadline"):
            # Pollers cap their probe reads at the wait's deadline (monotonic, like the engine's clock).
            poll.deadline = _wait.SystemClock().now() + timeout
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
                )
        except _wait.WaitError as error:
            wait_info = dict(error.as_dict(), probes=error.probes, history=list(error.history or []))
            if error.last_states:
                # Batch waits: the last known state of every resource that was not ready.
                wait_info["last_states"] = dict(error.last_states)
            self.result[self.result_key] = describe_last()
            msg, extra = f"{error}; {self.resource_remedy(resource_id)}", {}
            if explain_failure is not None:
                msg, extra = explain_failure(error)
            self.fail(
                msg,
                code=error.code,
                status=getattr(error, "status", None),
                resource_id=resource_id,
                wait=wait_info,
                **extra,
            )


def run_module(module_class, module):
    """Entry point helper: turn unexpected API errors into the structured failure, never a bare traceback."""
    runner = module_class(module)
    try:
        runner.run()
    except RunPodError as error:
        runner.fail(
            f"RunPod API error: {error.message} ({error.code})",
            code=error.code,
            status=error.status,
            exception=traceback.format_exc(),
        )

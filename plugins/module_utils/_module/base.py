# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""Ansible glue shared by every runpod.cloud module: argument specs, backend, one failure path."""

from __future__ import annotations

import copy
import hashlib
import os
import traceback
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any, NoReturn

from ansible.module_utils.basic import env_fallback, missing_required_lib

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import (
    HAS_HTTPX,
    HTTPX_IMPORT_ERROR,
    RunPodError,
)
from ansible_collections.runpod.cloud.plugins.module_utils._api.inputs import input_problem
from ansible_collections.runpod.cloud.plugins.module_utils._api.models import (
    HAS_PYDANTIC,
    PYDANTIC_IMPORT_ERROR,
    spec_problem,
)
from ansible_collections.runpod.cloud.plugins.module_utils._backend.account import account_api
from ansible_collections.runpod.cloud.plugins.module_utils._backend.core import resolve_options, transport_warnings
from ansible_collections.runpod.cloud.plugins.module_utils._backend.factory import make_backend
from ansible_collections.runpod.cloud.plugins.module_utils._engine import duration as _duration
from ansible_collections.runpod.cloud.plugins.module_utils._engine import outcome as _outcome
from ansible_collections.runpod.cloud.plugins.module_utils._engine import poll as _wait

# Paired with plugins/doc_fragments/auth.py: change both together.
AUTH_ARGUMENT_SPEC = dict(
    api_key=dict(type="str", required=True, no_log=True, fallback=(env_fallback, ["RUNPOD_API_KEY"])),
    # Deprecated: REST v2 is the only API left, and any other value fails with _backend.V1_RETIRED.
    api_version=dict(
        type="str", fallback=(env_fallback, ["RUNPOD_API_VERSION"]),
        removed_in_version="1.0.0", removed_from_collection="runpod.cloud",
    ),
    api_url=dict(type="str", fallback=(env_fallback, ["RUNPOD_API_URL"])),
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

# Set by the action plugin (plugins/action/) for a task it runs on the controller: the module does everything
# but the wait and returns HANDOFF_KEY, and the action plugin runs the same wait (``wait_for``) in its own
# process, printing the engine's lines as they happen. The value is the fingerprint of the api key the
# controller will wait with: a module that resolved another key waits by itself.
HANDOFF_ENV = "RUNPOD_CLOUD_WAIT_HANDOFF"
HANDOFF_KEY = "_runpod_wait_handoff"
# What a handoff carries of the module's validated options: never the api key. Every option a ``_waits`` class
# reads is here (the cluster wait's ``pod_count``); what it needs of the module's run travels in the result.
HANDOFF_OPTIONS = (
    *(key for key in CONNECTION_KEYS if key != "api_key"),
    "state", "wait", "wait_timeout", "wait_interval", "wait_for", "name", "id",
    "pod_count",
)


def key_fingerprint(api_key: str | None) -> str:
    """A one-way fingerprint of the api key: tells the module the controller waits with the same key."""
    return hashlib.sha256(str(api_key or "").encode("utf-8")).hexdigest()


def argument_spec(*parts: dict, **own: dict) -> dict:
    """Merge deep copies of the shared specs with a module's own options."""
    merged = {}
    for part in parts:
        merged.update(copy.deepcopy(part))
    merged.update(own)
    return merged


class WaitSettings:
    """Validated wait options, parsed before any API call so bad input never bills anybody."""

    def __init__(self, wait: bool, timeout: float, interval: float, wait_for: str | None = None):
        self.wait = wait
        self.timeout = timeout
        self.interval = interval
        self.wait_for = wait_for


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


class ResourceModule(RunPodModule):
    """The skeleton of a module that manages one resource; see docs/dev/architecture.md ("Resource modules").

    The base owns the lookup (by id, else by name, with the ``ambiguous`` failure), ``state: absent``,
    check mode, diff, the ``changed``/``actions`` bookkeeping and the failure messages of API calls.
    A subclass sets ``resource_kind`` (also the result key) and supplies the hooks below.
    """

    # The option that names a resource by id; None for modules that find by name only (templates).
    id_option: str | None = "id"
    # Whether the result lists what the task did (``actions``: create, update, start, ..., delete).
    track_actions = False
    # Appended to a failed delete's message: what commonly blocks a delete, and the way out.
    delete_blocker = ""
    # Whether the result still shows a deleted resource (False: null after the delete).
    keep_deleted = True
    # The ``_models`` input model (PodInput, ...) whose rules the options must pass before any API call.
    input_model: Any = None
    # Whether a create is followed by one list read by name, to catch the same name created at the same
    # moment by another task (forks of a play over many hosts); for resources whose names RunPod lets repeat.
    recheck_name_after_create = False
    # Whether a create that may have gone through (5xx, lost connection) is looked up by name and adopted.
    adopt_after_failed_create = False

    def __init__(self, module: Any) -> None:
        if not self.result_key:
            self.result_key = self.resource_kind
        super().__init__(module)
        self.params = module.params
        if self.track_actions:
            self.result["actions"] = []
        # Set once this task created or started a resource: every later failure names it (changed=true).
        self.touched_id: str | None = None
        self.last_seen: Any = None
        # Cancelled by the first SIGINT/SIGTERM while the task runs (see run()).
        self.interrupt = _wait.CancelToken()
        if self.input_model is not None:
            problem = input_problem(self.input_model, self.params)[1]
            if problem:
                self.fail(problem, code="bad_request")
        self.check_options()

    # --- hooks -----------------------------------------------------------------------------------
    def check_options(self) -> None:
        """Refuse bad input before any API call (``self.fail(..., code="bad_request")``)."""

    def read(self, resource_id: str) -> Any:
        """The resource with this id (raise ``RunPodError`` ``not_found``, or return None, when there is none)."""
        raise NotImplementedError

    def find_by_name(self, name: str) -> list:
        """Every live resource named ``name``."""
        raise NotImplementedError

    def describe(self, resource: Any) -> dict | None:
        """The result shape (from ``_describe``) of a view."""
        raise NotImplementedError

    def changes(self, current: Any) -> dict:
        """``{field: wanted value}`` for every field of ``current`` the task wants different."""
        raise NotImplementedError

    def build_spec(self) -> Any:
        """The create request (a ``_models`` spec); fail with ``bad_request`` when something is missing."""
        raise NotImplementedError

    def require_for_create(self, *needs: str | tuple[str, ...], hint: str = "") -> None:
        """Fail ``bad_request`` before a create when the task leaves out an option the create needs.

        Each need is an option, or a tuple of options of which one is enough (``("image", "template_id")``). The
        message is the same in every module: ``no <kind> named <name> exists, and creating one needs a, b or c and
        d``, then ``hint``.
        """
        missing = []
        for need in needs:
            options = (need,) if isinstance(need, str) else need
            if not any(self.params.get(option) for option in options):
                missing.append(" or ".join(options))
        if missing:
            listed = missing[0] if len(missing) == 1 else f"{', '.join(missing[:-1])} and {missing[-1]}"
            self.fail(
                f"no {self.resource_kind} named {self.params.get('name')!r} exists, and creating one needs {listed}"
                f"{hint}",
                code="bad_request",
            )

    def plan(self, spec: Any) -> tuple[dict | None, dict]:
        """``(result, diff after)`` of a create in check mode."""
        described = self.describe(spec)
        return described, described or {}

    def create(self, spec: Any) -> Any:
        raise NotImplementedError

    def update(self, current: Any, changes: dict) -> Any:
        raise NotImplementedError

    def delete(self, current: Any) -> None:
        raise NotImplementedError

    def diff_view(self, resource: Any) -> dict:
        """What the diff shows of a resource (default: its description)."""
        return self.describe(resource) or {}

    def planned_update(self, current: Any, changes: dict) -> Any:
        """The resource as an update would leave it (check mode)."""
        return current.model_copy(update=changes)

    def create_failed(self, spec: Any, error: RunPodError) -> Any:
        """A create raised: fail (default), or return the resource when it exists anyway (adoption)."""
        if error.maybe_created and self.adopt_after_failed_create:
            return self.adopt(spec, error)
        advice = self.not_retried_advice(spec) if error.maybe_created else None
        if advice:
            self.fail(
                f"creating {self.resource_kind} {spec.name!r} failed ({error.message}, {error.code}), and RunPod may "
                f"have created it anyway; it was not retried: {advice}",
                code=error.code,
                status=error.status,
            )
        self.fail_api(error, f"creating {self.resource_kind} {spec.name!r} failed", changed=False)

    def not_retried_advice(self, spec: Any) -> str | None:
        """What to do when a create may have gone through and is not adopted (None: the plain API failure)."""
        return None

    def adopt(self, spec: Any, error: RunPodError) -> Any:
        """The create answered 5xx, an unreadable success, or the connection dropped, so the resource may exist
        and bill: look it up by name and adopt the one found (``actions: [adopt]``); never send the create again."""
        kind, name = self.resource_kind, spec.name
        try:
            found = self.find_by_name(name)
        except RunPodError as lookup_error:
            self.fail(
                f"creating {kind} {name!r} failed with {error.message} ({error.code}), and listing {kind}s by name "
                f"to see whether it was created anyway also failed: {lookup_error.message} ({lookup_error.code}). "
                f"A {kind} may exist and bill: check with runpod.cloud.{self.result_key}_info before running the "
                "task again.",
                code=error.code,
                status=error.status,
                changed=True,
            )
        if len(found) == 1:
            if self.track_actions:
                self.result["actions"][-1:] = ["adopt"]
            self.module.warn(
                f"the create request answered {error.message} ({error.code}), but {kind} {found[0].id} named {name!r} "
                "is listed, so it was created; this task adopted it instead of creating another."
            )
            return found[0]
        if found:
            context = f"creating {kind} {name!r} answered {error.message} ({error.code}), and then "
            self.fail_ambiguous(name, found, context, status=error.status, changed=True)
        self.fail(
            f"creating {kind} {name!r} failed: {error.message} ({error.code}), and no {kind} with that name is listed, "
            "so the create did not go through as far as the API shows. Nothing was retried; running the task again "
            f"looks the name up first, so it cannot create a second {kind}.",
            code=error.code,
            status=error.status,
            changed=False,
        )

    def converge(self, current: Any) -> Any:
        """Bring an existing resource to the task's state (default: the update); returns it."""
        return self.update_resource(current)

    def should_wait(self) -> bool:
        return self.wait_settings is not None and self.wait_settings.wait

    def wait_for(self, resource: Any) -> None:
        """Block until ``resource`` is ready (with ``self.wait_until``); set ``result["wait"]``."""

    def hand_off_wait(self, resource: Any) -> None:
        """Exit without waiting when the action plugin asked to run this wait on the controller (HANDOFF_ENV)."""
        self.hand_off(id=resource.id, name=getattr(resource, "name", None), touched_id=self.touched_id)

    def resume(self, handoff: dict) -> None:
        self.touched_id = handoff.get("touched_id")
        self.wait_for(SimpleNamespace(id=handoff["id"], name=handoff.get("name")))

    def last_known_state(self) -> str:
        return "unknown"

    # --- the run ---------------------------------------------------------------------------------
    def run(self) -> None:
        # A signal that reaches the module outside a wait lets the API call in flight finish, so the failure
        # can name what it created (a signal during a wait is the wait's own ``wait_interrupted``).
        with _wait.cancel_on_signals(self.interrupt):
            current = self.seen(self.find())
            if self.params.get("state") == "absent":
                self.absent(current)
            else:
                resource = self.converge(current) if current is not None else self.create_missing()
                self.stop_if_interrupted(resource)
                if resource is not None and self.should_wait():
                    self.hand_off_wait(resource)
                    self.wait_for(resource)
        self.exit()

    def stop_if_interrupted(self, resource: Any) -> None:
        """Fail with ``interrupted`` when a signal arrived; name ``resource`` (created or changed) if there is one."""
        if not self.interrupt.cancelled:
            return
        reason = self.interrupt.reason or "a signal"
        if resource is None:
            self.fail(f"interrupted by {reason} before the create was sent; nothing was created", code="interrupted",
                      changed=False)
        if not self.result["changed"]:
            self.fail(f"interrupted by {reason}; {self.label(resource)} was not changed", code="interrupted",
                      resource_id=resource.id)
        self.fail(
            f"interrupted by {reason} after this task created or changed {self.label(resource)}, before any wait "
            f"started; {self.resource_remedy(resource.id)}",
            code="interrupted",
            resource_id=resource.id,
        )

    def seen(self, resource: Any) -> Any:
        """Remember ``resource`` as last read and make it the result."""
        if resource is not None:
            self.last_seen = resource
            self.result[self.result_key] = self.describe(resource)
        return resource

    def label(self, resource: Any) -> str:
        return f"{self.resource_kind} {resource.id} ({resource.name!r})"

    def action(self, name: str) -> None:
        self.mark_changed()
        if self.track_actions:
            self.result["actions"].append(name)

    def set_diff(self, before: dict, after: dict) -> None:
        if self.module._diff:
            self.result["diff"] = {"before": before, "after": after}

    # --- lookup ----------------------------------------------------------------------------------
    def find(self) -> Any:
        """The resource named by the id option, else by name; None when there is none."""
        resource_id = self.params.get(self.id_option) if self.id_option else None
        if resource_id:
            try:
                return self.read(resource_id)
            except RunPodError as error:
                if error.code == "not_found":
                    return None
                self.fail_api(error, f"reading {self.resource_kind} {resource_id} failed", resource_id=resource_id)
        name = self.params["name"]
        try:
            matches = self.find_by_name(name)
        except RunPodError as error:
            self.fail_api(error, f"listing {self.resource_kind}s named {name!r} failed")
        if len(matches) > 1:
            self.fail_ambiguous(name, matches)
        return matches[0] if matches else None

    def fail_ambiguous(self, name: str, matches: list, context: str = "", **extra) -> NoReturn:
        """Several live resources carry ``name``: fail with code ``ambiguous``, listing their ids."""
        ids = sorted(resource.id for resource in matches)
        kind = self.resource_kind
        remedy = f"set {self.id_option} to the one you mean, or delete" if self.id_option else "rename or delete"
        self.fail(
            f"{context}found {len(ids)} {kind}s named {name!r} (ids: {', '.join(ids)}); this module needs names to be "
            f"unique, so it will not guess: {remedy} the others (runpod.cloud.{self.result_key} "
            f"{self.id_option or 'name'}=<{self.id_option or 'name'}> state=absent)",
            code="ambiguous",
            ids=ids,
            **extra,
        )

    # --- present ---------------------------------------------------------------------------------
    def create_missing(self) -> Any:
        """No resource matched: create it (an id never creates); None in check mode."""
        resource_id = self.params.get(self.id_option) if self.id_option else None
        kind = self.resource_kind
        if resource_id:
            article = "an" if kind[:1] in "aeiou" else "a"
            self.fail(
                f"{kind} {resource_id} does not exist (deleted, terminated, or not visible to this api key), and "
                f"an id never creates {article} {kind}: to create {article} {kind}, give name (and no id)",
                code="not_found",
                resource_id=resource_id,
            )
        try:
            spec = self.build_spec()
        except ValueError as error:  # the spec's own rules (``_models``): one rule, one message
            self.fail(f"no {kind} named {self.params['name']!r} exists, and {spec_problem(error)}", code="bad_request")
        self.action("create")
        result, after = self.plan(spec)
        self.set_diff({}, after)
        if self.module.check_mode:
            self.result[self.result_key] = result
            return None
        self.stop_if_interrupted(None)
        try:
            created = self.create(spec)
        except RunPodError as error:
            created = self.create_failed(spec, error)
        except ValueError as error:
            self.fail(f"creating {self.resource_kind} {spec.name!r} refused: {error}", code="bad_request",
                      changed=False)
        else:
            if self.recheck_name_after_create:
                self.touched_id = created.id
                self.refuse_concurrent_duplicates(self.seen(created))
        self.touched_id = created.id
        return self.seen(created)

    def refuse_taken_name(self, current: Any, name: str) -> None:
        """A rename onto a name another live resource carries would leave two with one name: refuse it."""
        try:
            others = sorted(found.id for found in self.find_by_name(name) if found.id != current.id)
        except RunPodError as error:
            self.fail_api(error, f"listing {self.resource_kind}s named {name!r} failed", resource_id=current.id)
        if others:
            kind = self.resource_kind
            self.fail(
                f"{self.label(current)} cannot be renamed to {name!r}: {kind} {', '.join(others)} "
                f"{'is' if len(others) == 1 else 'are'} already named {name!r}, and this module needs names to be "
                "unique. Nothing was changed; choose another name.",
                code="conflict",
                resource_id=current.id,
                ids=others,
                changed=False,
            )

    def refuse_concurrent_duplicates(self, created: Any) -> None:
        """One list read after a create: other tasks may have created the same name at the same moment."""
        try:
            matches = self.find_by_name(created.name)
        except RunPodError as error:
            self.module.warn(
                f"{self.label(created)} was created, but the list read that checks for other {self.resource_kind}s "
                f"created with the same name at the same moment failed: {error.message} ({error.code})"
            )
            return
        if any(found.id != created.id for found in matches):
            if all(found.id != created.id for found in matches):
                matches = [*matches, created]
            self.fail_ambiguous(
                created.name,
                matches,
                f"{self.label(created)} was created, but other tasks created {self.resource_kind}s with the same "
                "name at the same moment (for example the forks of a play over several hosts: use run_once: true "
                "for one shared resource, or a name per host). Nothing was deleted; ",
                resource_id=created.id,
                changed=True,
            )

    def update_resource(self, current: Any) -> Any:
        """One update call for the fields that differ; the diff lists only those fields."""
        changes = self.changes(current)
        if not changes:
            return current
        if "name" in changes:
            self.refuse_taken_name(current, changes["name"])
        view = self.diff_view(current)
        self.action("update")
        if self.track_actions:
            self.result["updated_fields"] = list(changes)
        self.set_diff({field: view.get(field) for field in changes}, dict(changes))
        if self.module.check_mode:
            return self.seen(self.planned_update(current, changes))
        try:
            updated = self.update(current, changes)
        except RunPodError as error:
            if self.touched_id:
                self.fail_touched(error, f"updating {self.label(current)} failed")
            self.fail_api(error, f"updating {self.label(current)} failed", resource_id=current.id, changed=False)
        except ValueError as error:
            self.fail(f"{self.label(current)} cannot be updated: {error}", code="bad_request",
                      resource_id=current.id, changed=False)
        return self.seen(updated)

    # --- absent ----------------------------------------------------------------------------------
    def absent(self, current: Any) -> None:
        """Delete the resource found; a resource that is already gone is no error."""
        if current is None:
            return
        self.action("delete")
        self.set_diff(self.diff_view(current), {})
        if self.module.check_mode:
            return
        try:
            self.delete(current)
        except RunPodError as error:
            if error.code != "not_found":
                self.fail_api(error, f"deleting {self.label(current)} failed{self.delete_blocker}",
                              resource_id=current.id, changed=False)
        if not self.keep_deleted:
            self.result[self.result_key] = None

    # --- failures --------------------------------------------------------------------------------
    def fail_touched(self, error: RunPodError, action: str) -> NoReturn:
        """An API error after this task created or started a resource: keep its id, changed=true, the remedy."""
        resource_id = str(self.touched_id)
        self.mark_changed()
        self.fail(
            f"{action}: {error.message} ({error.code}); the last known state of {self.resource_kind} "
            f"{resource_id} is {self.last_known_state()}; {self.resource_remedy(resource_id)}",
            code=error.code,
            status=error.status,
            resource_id=resource_id,
        )

    def fail_unexpected(self, error: RunPodError) -> NoReturn:
        if self.touched_id:
            self.fail_touched(error, "RunPod API error")
        super().fail_unexpected(error)


def run_module(module_class, module) -> None:
    """Entry point of every module: turn unexpected API errors into the structured failure."""
    runner = module_class(module)
    try:
        runner.run()
    except RunPodError as error:
        runner.fail_unexpected(error)

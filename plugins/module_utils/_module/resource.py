# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""``ResourceModule``: the skeleton of a module that manages one resource, and ``NameGuard``, its name rules
(docs/dev/architecture.md, "Resource modules"; its hooks: "Hooks")."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._engine import outcome as _outcome
from ansible_collections.runpod.cloud.plugins.module_utils._module import base as _base
from ansible_collections.runpod.cloud.plugins.module_utils._rules.common import with_secret_env
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.record import spec_problem


@dataclass
class NameGuard:
    """The name rules (never a second resource, never someone else's) over the module's lookup and failure path."""

    kind: str
    result_key: str
    id_option: str | None
    find_by_name: Callable[[str], list]
    fail: Callable[..., NoReturn]
    fail_api: Callable[..., NoReturn]
    warn: Callable[[str], None]

    def label(self, resource: Any) -> str:
        return f"{self.kind} {resource.id} ({resource.name!r})"

    def fail_ambiguous(self, name: str, matches: list, context: str = "", **extra) -> NoReturn:
        ids = sorted(resource.id for resource in matches)
        option = self.id_option or "name"
        remedy = f"set {option} to the one you mean, or delete" if self.id_option else "rename or delete"
        delete = _base.delete_hint(self.result_key, f"{option}=<{option}>")
        self.fail(
            f"{context}found {len(ids)} {self.kind}s named {name!r} (ids: {', '.join(ids)}); this module needs names "
            f"to be unique, so it will not guess: {remedy} the others ({delete})",
            code="ambiguous", ids=ids, **extra,
        )

    def create_failed(self, name: str, error: RunPodError, advice: str | None) -> NoReturn:
        if advice:
            self.fail(
                f"creating {self.kind} {name!r} failed ({error.message}, {error.code}), and RunPod may have created "
                f"it anyway; it was not retried: {advice}",
                code=error.code, status=error.status,
            )
        self.fail_api(error, f"creating {self.kind} {name!r} failed", changed=False)

    def adopt(self, name: str, error: RunPodError) -> Any:
        """The create may have gone through and bill: return the one resource listed by name; never re-send it."""
        kind, key = self.kind, self.result_key
        try:
            found = self.find_by_name(name)
        except RunPodError as lookup_error:
            info = _base.INFO_MODULES.get(key)
            hint = f"runpod.cloud.{info}" if info else _base.info_hint(key, f"name={name}")
            self.fail(
                f"creating {kind} {name!r} failed with {error.message} ({error.code}), and listing {kind}s by name "
                f"to see whether it was created anyway also failed: {lookup_error.message} ({lookup_error.code}). "
                f"A {kind} may exist and bill: check with {hint} before running the task again.",
                code=error.code, status=error.status, changed=True,
            )
        if len(found) == 1:
            self.warn(
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
            code=error.code, status=error.status, changed=False,
        )

    def refuse_taken_name(self, current: Any, name: str) -> None:
        try:
            others = sorted(found.id for found in self.find_by_name(name) if found.id != current.id)
        except RunPodError as error:
            self.fail_api(error, f"listing {self.kind}s named {name!r} failed", resource_id=current.id)
        if others:
            self.fail(
                f"{self.label(current)} cannot be renamed to {name!r}: {self.kind} {', '.join(others)} "
                f"{'is' if len(others) == 1 else 'are'} already named {name!r}, and this module needs names to be "
                "unique. Nothing was changed; choose another name.",
                code="conflict", resource_id=current.id, ids=others, changed=False,
            )

    def refuse_concurrent_duplicates(self, created: Any, find_by_name: Any = None) -> None:
        """One list read after a create (``find_by_name``: a fleet's): other tasks may have created the same name."""
        try:
            matches = (find_by_name or self.find_by_name)(created.name)
        except RunPodError as error:
            self.warn(
                f"{self.label(created)} was created, but the list read that checks for other {self.kind}s "
                f"created with the same name at the same moment failed: {error.message} ({error.code})"
            )
            return
        others = [found for found in matches if found.id != created.id]
        if others:
            self.fail_ambiguous(
                created.name, [*others, created],
                f"{self.label(created)} was created, but other tasks created {self.kind}s with the same "
                "name at the same moment (for example the forks of a play over several hosts: use run_once: true "
                "for one shared resource, or a name per host). Nothing was deleted; ",
                resource_id=created.id, changed=True,
            )


class ResourceModule(_base.RunPodModule):
    """A subclass sets ``resource_kind`` (also the result key) and the hooks (docs/dev/architecture.md, "Hooks")."""

    id_option: str | None = "id"
    track_actions = False  # the result's ``actions``: create, update, start, ..., delete
    delete_blocker = ""  # appended to a failed delete's message: what commonly blocks it, and the way out
    keep_deleted = True  # False: the result is null after a delete
    input_model: Any = None
    recheck_name_after_create = False
    adopt_after_failed_create = False
    waiter_class: Any = None

    def __init__(self, module: Any, **seat: Any) -> None:
        super().__init__(module, result_key=self.result_key or self.resource_kind, **seat)
        self.name_guard = NameGuard(self.resource_kind, self.result_key, self.id_option, self.find_by_name,
                                    fail=self.fail, fail_api=self.fail_api, warn=self.warn)
        self.label = self.name_guard.label
        if self.track_actions:
            self.result["actions"] = []
        # Set once this task created or started a resource: every later failure names it (changed=true).
        self.touched_id: str | None = None
        self.last_seen: Any = None
        self.interrupt = _outcome.CancelToken()
        if self.input_model is not None:
            _base.check_input(self, self.input_model)
        # secret_env becomes env placeholders here, once, so every later step sees plain env values.
        self.secret_names = sorted(set((self.params.get("secret_env") or {}).values()))
        try:
            self.params = with_secret_env(self.params)
        except ValueError as error:
            self.fail(str(error), code="bad_request")
        self.waiter = self.waiter_class(self) if self.waiter_class is not None else None

    # --- hooks (docs/dev/architecture.md, "Hooks") -------------------------------------------------
    def check_found(self, current: Any) -> None:
        pass

    def read(self, resource_id: str) -> Any:
        """The resource with this id (raise ``RunPodError`` ``not_found``, or return None, when there is none)."""
        raise NotImplementedError

    def find_by_name(self, name: str) -> list:
        raise NotImplementedError

    def describe(self, resource: Any) -> dict | None:
        raise NotImplementedError

    def changes(self, current: Any) -> dict:
        raise NotImplementedError

    def build_spec(self) -> Any:
        raise NotImplementedError

    def plan(self, spec: Any) -> tuple[dict | None, dict]:
        described = self.describe(spec)
        return described, described or {}

    def create(self, spec: Any) -> Any:
        raise NotImplementedError

    def create_failed(self, spec: Any, error: RunPodError) -> Any:
        if error.maybe_created and self.adopt_after_failed_create:
            adopted = self.name_guard.adopt(spec.name, error)
            if self.track_actions:
                self.result["actions"][-1:] = ["adopt"]
            return adopted
        self.name_guard.create_failed(spec.name, error, self.not_retried_advice(spec) if error.maybe_created else None)

    def not_retried_advice(self, spec: Any) -> str | None:
        return None

    def create_placed(self, create: Any) -> Any:
        """``create() -> (resource, placement)`` (pod, cluster): the result's ``placement``, also on a failure."""
        placement = None
        try:
            resource, placement = create()
            return resource
        except RunPodError as error:
            placement = getattr(error, "placement", None)
            raise
        finally:
            if placement is not None:
                self.result["placement"] = placement

    def update(self, current: Any, changes: dict) -> Any:
        raise NotImplementedError

    def delete(self, current: Any) -> None:
        raise NotImplementedError

    def diff_view(self, resource: Any) -> dict:
        return self.describe(resource) or {}

    def planned_update(self, current: Any, changes: dict) -> Any:
        return current.model_copy(update=changes)

    def converge(self, current: Any) -> Any:
        return self.update_resource(current)

    def should_wait(self) -> bool:
        return self.waiter is not None and self.wait_settings is not None and self.wait_settings.wait

    def hand_off_wait(self, resource: Any) -> None:
        self.hand_off(id=resource.id, name=resource.name, touched_id=self.touched_id)

    def last_known_state(self) -> str:
        return self.waiter.last_known_state() if self.waiter is not None else "unknown"

    def selector(self, resource_id: str) -> str:
        return f"{self.id_option}={resource_id}" if self.id_option else f"name={self.params['name']}"

    # --- the run ---------------------------------------------------------------------------------
    def require_secrets(self) -> None:
        """A secret ``secret_env`` names and the account lacks would boot the container with the placeholder."""
        if not self.secret_names or self.params.get("state") == "absent":
            return
        try:
            known = self.backend.secrets.names()
        except RunPodError as error:
            self.fail_api(error, "reading the account's secrets (to check the ones secret_env names) failed")
        missing = [name for name in self.secret_names if name.casefold() not in known]
        if missing:
            self.fail(
                f"secret_env names {'a secret' if len(missing) == 1 else 'secrets'} this account does not have: "
                f"{', '.join(missing)}; create {'it' if len(missing) == 1 else 'them'} first (runpod.cloud.secret) "
                f"or fix the name. Nothing was created or changed", code="bad_request")

    def run(self) -> None:
        # A signal outside a wait lets the call in flight finish, so the failure can name what it created.
        self.require_secrets()
        with _outcome.cancel_on_signals(self.interrupt):
            current = self.seen(self.find())
            if self.params.get("state") == "absent":
                self.absent(current)
            else:
                resource = self.present(current)
                self.stop_if_interrupted(resource)
                if resource is not None and self.should_wait():
                    self.hand_off_wait(resource)
                    self.waiter.wait_for(resource)
        self.exit()

    def stop_if_interrupted(self, resource: Any) -> None:
        if not self.interrupt.cancelled:
            return
        reason = self.interrupt.reason or "a signal"
        if resource is None:
            self.fail(f"interrupted by {reason} before the create was sent; nothing was created", code="interrupted",
                      changed=False)
        if not self.result["changed"]:
            self.fail(f"interrupted by {reason}; {self.label(resource)} was not changed", code="interrupted",
                      resource_id=resource.id)
        self.fail(f"interrupted by {reason} after this task created or changed {self.label(resource)}, before any "
                  f"wait started; {self.resource_remedy(resource.id)}", code="interrupted", resource_id=resource.id)

    def seen(self, resource: Any) -> Any:
        if resource is not None:
            self.last_seen = resource
            self.result[self.result_key] = self.describe(resource)
        return resource

    def action(self, name: str) -> None:
        self.mark_changed()
        if self.track_actions:
            self.result["actions"].append(name)

    def set_diff(self, before: dict, after: dict) -> None:
        if self.module._diff:
            self.result["diff"] = {"before": before, "after": after}

    def find(self) -> Any:
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
            self.name_guard.fail_ambiguous(name, matches)
        return matches[0] if matches else None

    def present(self, current: Any) -> Any:
        """``current`` (None: nothing found) brought to the task's state; None for a create in check mode."""
        self.check_found(current)
        return self.converge(current) if current is not None else self.create_missing()

    def create_missing(self) -> Any:
        resource_id = self.params.get(self.id_option) if self.id_option else None
        kind = self.resource_kind
        if resource_id:
            article = "an" if kind[:1] in "aeiou" else "a"
            self.fail(
                f"{kind} {resource_id} does not exist (deleted, terminated, or not visible to this api key), and "
                f"an id never creates {article} {kind}: to create {article} {kind}, give name (and no id)",
                code="not_found", resource_id=resource_id,
            )
        # What a create needs is the input model's; a spec may still refuse a value (one rule, one message).
        problem = self.input_model.create_problem(self.params) if self.input_model is not None else None
        if not problem:
            try:
                spec = self.build_spec()
            except ValueError as error:
                problem = spec_problem(error)
        if problem:
            self.fail(f"no {kind} named {self.params.get('name')!r} exists, and {problem}", code="bad_request")
        self.action("create")
        result, after = self.plan(spec)
        self.set_diff({}, after)
        if self.module.check_mode:
            self.result[self.result_key] = result
            return None
        self.stop_if_interrupted(None)
        try:
            created, adopted = self.create(spec), False
        except RunPodError as error:
            created, adopted = self.create_failed(spec, error), True
        except ValueError as error:
            self.fail(f"creating {kind} {spec.name!r} refused: {error}", code="bad_request", changed=False)
        self.touched_id = created.id
        if self.recheck_name_after_create and not adopted:
            self.name_guard.refuse_concurrent_duplicates(self.seen(created))
        return self.seen(created)

    def update_resource(self, current: Any) -> Any:
        changes = self.changes(current)
        if not changes:
            return current
        if "name" in changes:
            self.name_guard.refuse_taken_name(current, changes["name"])
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

    def absent(self, current: Any) -> None:
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

    def fail_touched(self, error: RunPodError, action: str) -> NoReturn:
        resource_id = str(self.touched_id)
        self.fail_kept(error, action, self.resource_kind, resource_id, self.last_known_state(),
                       self.resource_remedy(resource_id))

    def fail_unexpected(self, error: RunPodError) -> NoReturn:
        if self.touched_id:
            self.fail_touched(error, "RunPod API error")
        super().fail_unexpected(error)

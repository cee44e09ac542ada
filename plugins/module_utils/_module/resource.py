# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""``ResourceModule``: the skeleton of a module that manages one resource (docs/dev/architecture.md, "Resource
modules"): lookup, present, absent, check mode, diff, results and the failure messages of API calls."""

from __future__ import annotations

from typing import Any, NoReturn

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._engine import outcome as _outcome
from ansible_collections.runpod.cloud.plugins.module_utils._module.adoption import NameGuard
from ansible_collections.runpod.cloud.plugins.module_utils._module.base import RunPodModule, check_input
from ansible_collections.runpod.cloud.plugins.module_utils._rules.common import with_secret_env
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.record import spec_problem


class ResourceModule(RunPodModule):
    """The skeleton of a module that manages one resource. A subclass sets ``resource_kind`` (also the result key)
    and supplies the hooks below."""

    # The option that names a resource by id; None for modules that find by name only (templates).
    id_option: str | None = "id"
    # Whether the result lists what the task did (``actions``: create, update, start, ..., delete).
    track_actions = False
    # Appended to a failed delete's message: what commonly blocks a delete, and the way out.
    delete_blocker = ""
    # Whether the result still shows a deleted resource (False: null after the delete).
    keep_deleted = True
    # The ``_api.inputs`` model whose rules the options pass before any API call (what the lookup found is
    # ``check_found``'s); its ``create_problem`` says what a create needs.
    input_model: Any = None
    # Whether a create is followed by one list read by name, to catch the same name created at the same
    # moment by another task (forks of a play over many hosts).
    recheck_name_after_create = False
    # Whether a create that may have gone through (5xx, lost connection) is looked up by name and adopted.
    adopt_after_failed_create = False
    # The module's waiter (``pod_waiter.PodWaiter``, ...): built once the options passed.
    waiter_class: Any = None

    def __init__(self, module: Any, *, recheck_after_create: bool | None = None, **seat: Any) -> None:
        """``seat``: ``RunPodModule``'s (params, report, backend) for a fleet's member, which leaves the name recheck
        to the fleet (``recheck_after_create=False``)."""
        if not self.result_key:
            self.result_key = self.resource_kind
        if recheck_after_create is not None:
            self.recheck_name_after_create = recheck_after_create
        super().__init__(module, **seat)
        self.name_guard = NameGuard(self.resource_kind, self.result_key, self.id_option, self.find_by_name,
                                    fail=self.fail, fail_api=self.fail_api, warn=self.warn)
        if self.track_actions:
            self.result["actions"] = []
        # Set once this task created or started a resource: every later failure names it (changed=true).
        self.touched_id: str | None = None
        self.last_seen: Any = None
        # Cancelled by the first SIGINT/SIGTERM while the task runs (see run()).
        self.interrupt = _outcome.CancelToken()
        if self.input_model is not None:
            check_input(self, self.input_model)
        # secret_env becomes env placeholders here, once, so every later step sees plain env values.
        self.secret_names = sorted(set((self.params.get("secret_env") or {}).values()))
        try:
            self.params = with_secret_env(self.params)
        except ValueError as error:
            self.fail(str(error), code="bad_request")
        self.waiter = self.waiter_class(self) if self.waiter_class is not None else None

    # --- hooks -----------------------------------------------------------------------------------
    def check_found(self, current: Any) -> None:
        """The rules that need what the lookup found (``current``, or None), before any change or create: fail when
        the task asks for what RunPod cannot do (a setting fixed at create, a state that never creates)."""

    def read(self, resource_id: str) -> Any:
        """The resource with this id (raise ``RunPodError`` ``not_found``, or return None, when there is none)."""
        raise NotImplementedError

    def find_by_name(self, name: str) -> list:
        raise NotImplementedError

    def describe(self, resource: Any) -> dict | None:
        raise NotImplementedError

    def changes(self, current: Any) -> dict:
        """``{field: wanted value}`` for every field of ``current`` the task wants different."""
        raise NotImplementedError

    def build_spec(self) -> Any:
        """The create request (a ``_vocab/*_fields`` spec) of options that have what a create needs."""
        raise NotImplementedError

    def plan(self, spec: Any) -> tuple[dict | None, dict]:
        """``(result, diff after)`` of a create in check mode."""
        described = self.describe(spec)
        return described, described or {}

    def create(self, spec: Any) -> Any:
        raise NotImplementedError

    def create_failed(self, spec: Any, error: RunPodError) -> Any:
        """A create raised: fail (default), or return the resource when it exists anyway (adoption)."""
        if error.maybe_created and self.adopt_after_failed_create:
            adopted = self.name_guard.adopt(spec.name, error)
            if self.track_actions:
                self.result["actions"][-1:] = ["adopt"]
            return adopted
        self.name_guard.create_failed(spec.name, error, self.not_retried_advice(spec) if error.maybe_created else None)

    def not_retried_advice(self, spec: Any) -> str | None:
        """What to do when a create may have gone through and is not adopted (None: the plain API failure)."""
        return None

    def create_placed(self, create: Any) -> Any:
        """``create() -> (resource, placement)``, a create that places (pod, cluster): what it tried is the
        result's ``placement``, on success and on failure (a ``RunPodError`` carries it)."""
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
        """The resource as an update would leave it (check mode)."""
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
        # A module that finds by name only (templates) names the resource by its name.
        return f"{self.id_option}={resource_id}" if self.id_option else f"name={self.params['name']}"

    # --- the run ---------------------------------------------------------------------------------
    def require_secrets(self) -> None:
        """Fail before any change when ``secret_env`` names a secret the account lacks (RunPod would leave the
        placeholder as the value, and the container would boot without its secret)."""
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
        # A signal that reaches the module outside a wait lets the API call in flight finish, so the failure
        # can name what it created (a signal during a wait is the wait's own ``wait_interrupted``).
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
        self.fail(f"interrupted by {reason} after this task created or changed {self.label(resource)}, before any "
                  f"wait started; {self.resource_remedy(resource.id)}", code="interrupted", resource_id=resource.id)

    def seen(self, resource: Any) -> Any:
        if resource is not None:
            self.last_seen = resource
            self.result[self.result_key] = self.describe(resource)
        return resource

    def label(self, resource: Any) -> str:
        return self.name_guard.label(resource)

    def action(self, name: str) -> None:
        self.mark_changed()
        if self.track_actions:
            self.result["actions"].append(name)

    def set_diff(self, before: dict, after: dict) -> None:
        if self.module._diff:
            self.result["diff"] = {"before": before, "after": after}

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
                code="not_found",
                resource_id=resource_id,
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
            created = self.create(spec)
        except RunPodError as error:
            created = self.create_failed(spec, error)
        except ValueError as error:
            self.fail(f"creating {self.resource_kind} {spec.name!r} refused: {error}", code="bad_request",
                      changed=False)
        else:
            if self.recheck_name_after_create:
                self.touched_id = created.id
                self.name_guard.refuse_concurrent_duplicates(self.seen(created))
        self.touched_id = created.id
        return self.seen(created)

    def update_resource(self, current: Any) -> Any:
        """One update call for the fields that differ; the diff lists only those fields."""
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
        """Delete the resource found; one already gone is no error."""
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
        """An API error after this task created or started a resource: keep its id, changed=true, the remedy."""
        resource_id = str(self.touched_id)
        self.fail_kept(error, action, self.resource_kind, resource_id, self.last_known_state(),
                       self.resource_remedy(resource_id))

    def fail_unexpected(self, error: RunPodError) -> NoReturn:
        if self.touched_id:
            self.fail_touched(error, "RunPod API error")
        super().fail_unexpected(error)

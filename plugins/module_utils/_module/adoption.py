# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""Never a second resource, never someone else's: what a resource module does after a create that may have gone
through (adoption) and around names RunPod lets repeat (renames, creates racing on one name)."""

from __future__ import annotations

from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._module import hints as _hints


class CreateSafety:
    """The name rules of ``ResourceModule`` (docs/dev/architecture.md, "never a second resource"). Uses the module's
    ``find_by_name``, ``fail``, ``fail_api``, ``fail_ambiguous``, ``label`` and its result; hooks stay overridable."""

    resource_kind: str
    result_key: str
    track_actions: bool
    adopt_after_failed_create: bool
    result: dict
    module: Any
    warn: Any
    find_by_name: Any
    fail: Any
    fail_api: Any
    fail_ambiguous: Any
    label: Any

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
                f"A {kind} may exist and bill: check with {self.info_hint_by_name(name)} before running the "
                "task again.",
                code=error.code,
                status=error.status,
                changed=True,
            )
        if len(found) == 1:
            if self.track_actions:
                self.result["actions"][-1:] = ["adopt"]
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
            code=error.code,
            status=error.status,
            changed=False,
        )

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

    def info_hint_by_name(self, name: str) -> str:
        """The task that lists this module's resources (its ``_info`` module), else this module by name."""
        if self.result_key in _hints.INFO_MODULES:
            return f"runpod.cloud.{_hints.INFO_MODULES[self.result_key]}"
        return _hints.info_hint(self.result_key, f"name={name}")

    def refuse_concurrent_duplicates(self, created: Any, find_by_name: Any = None) -> None:
        """One list read after a create: other tasks may have created the same name at the same moment.
        ``find_by_name`` replaces the module's own lookup (a fleet answers every member from one list read)."""
        try:
            matches = (find_by_name or self.find_by_name)(created.name)
        except RunPodError as error:
            self.warn(
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

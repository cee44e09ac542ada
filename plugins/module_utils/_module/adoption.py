# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""Never a second resource, never someone else's: what a resource module does around names RunPod lets repeat
(several found, a create that may have gone through, renames, creates racing on one name)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._module import base as _base


@dataclass
class NameGuard:
    """The name rules of one ``ResourceModule`` (docs/dev/architecture.md, "never a second resource"), over its
    lookup by name and its failure path (a fleet member's raises instead of ending the task)."""

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
        id_option = self.id_option
        placeholder = f"{id_option or 'name'}=<{id_option or 'name'}>"
        remedy = f"set {id_option} to the one you mean, or delete" if id_option else "rename or delete"
        delete = _base.delete_hint(self.result_key, placeholder)
        self.fail(
            f"{context}found {len(ids)} {self.kind}s named {name!r} (ids: {', '.join(ids)}); this module needs names "
            f"to be unique, so it will not guess: {remedy} the others ({delete})",
            code="ambiguous", ids=ids, **extra,
        )

    def create_failed(self, name: str, error: RunPodError, advice: str | None) -> NoReturn:
        """A create raised and nothing is adopted: ``advice`` (it may have gone through), else the API failure."""
        if advice:
            self.fail(
                f"creating {self.kind} {name!r} failed ({error.message}, {error.code}), and RunPod may have created "
                f"it anyway; it was not retried: {advice}",
                code=error.code, status=error.status,
            )
        self.fail_api(error, f"creating {self.kind} {name!r} failed", changed=False)

    def adopt(self, name: str, error: RunPodError) -> Any:
        """The create answered 5xx, an unreadable success, or the connection dropped, so the resource may exist
        and bill: look it up by name and return the one found; never send the create again."""
        kind = self.kind
        try:
            found = self.find_by_name(name)
        except RunPodError as lookup_error:
            self.fail(
                f"creating {kind} {name!r} failed with {error.message} ({error.code}), and listing {kind}s by name "
                f"to see whether it was created anyway also failed: {lookup_error.message} ({lookup_error.code}). "
                f"A {kind} may exist and bill: check with {self._info_hint_by_name(name)} before running the "
                "task again.",
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
        """A rename onto a name another live resource carries would leave two with one name: refuse it."""
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

    def _info_hint_by_name(self, name: str) -> str:
        if self.result_key in _base.INFO_MODULES:
            return f"runpod.cloud.{_base.INFO_MODULES[self.result_key]}"
        return _base.info_hint(self.result_key, f"name={name}")

    def refuse_concurrent_duplicates(self, created: Any, find_by_name: Any = None) -> None:
        """One list read after a create: other tasks may have created the same name at the same moment.
        ``find_by_name``: a fleet's one list read."""
        try:
            matches = (find_by_name or self.find_by_name)(created.name)
        except RunPodError as error:
            self.warn(
                f"{self.label(created)} was created, but the list read that checks for other {self.kind}s "
                f"created with the same name at the same moment failed: {error.message} ({error.code})"
            )
            return
        if any(found.id != created.id for found in matches):
            if all(found.id != created.id for found in matches):
                matches = [*matches, created]
            self.fail_ambiguous(
                created.name,
                matches,
                f"{self.label(created)} was created, but other tasks created {self.kind}s with the same "
                "name at the same moment (for example the forks of a play over several hosts: use run_once: true "
                "for one shared resource, or a name per host). Nothing was deleted; ",
                resource_id=created.id, changed=True,
            )

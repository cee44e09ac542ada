# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The secret module's rules (pure Python): what an update sends, what its diff shows (never a value: RunPod returns
none, and the task's own must not leak), and what a failed update says was applied."""

from __future__ import annotations

from typing import Any, NamedTuple

# What a diff shows in place of a value (fixed words, so no diff can carry one).
HIDDEN = {"stored": "(stored)", "changed": "(changed)", "set": "(set)"}
# The order RunPod applies a combined update in, and so the order the module sends the two halves.
UPDATE_ORDER = ("value", "description")


class PlannedUpdate(NamedTuple):
    fields: tuple  # what is sent, in UPDATE_ORDER
    before: dict  # the diff's two sides
    after: dict
    view_changes: dict  # what check mode shows of the secret afterwards (never the value)


def planned_update(current: Any, description: str | None, value: str | None) -> PlannedUpdate:
    """The update of ``current`` a task asks for: ``description`` when given and different (None and "" alike),
    ``value`` whenever given (only with ``update_value: always``: a value cannot be compared)."""
    before, after, view_changes, fields = {}, {}, {}, []
    if value is not None:
        fields.append("value")
        before["value"], after["value"] = HIDDEN["stored"], HIDDEN["changed"]
    # RunPod's answers are read stripped (``readers.as_str``), so a YAML block's trailing newline is no change.
    if description is not None and description.strip() != (current.description or ""):
        fields.append("description")
        before["description"], after["description"] = current.description, description
        view_changes["description"] = description
    return PlannedUpdate(tuple(field for field in UPDATE_ORDER if field in fields), before, after, view_changes)


def failed_update_message(label: str, fields: tuple, applied: list, error: Any) -> tuple[str, list, bool]:
    """``(message, not applied, maybe applied)`` of an update that failed after ``applied`` went through: which half
    RunPod applied, whether the failed one may have gone through anyway, what a rerun does; never the value."""
    not_applied = [field for field in fields if field not in applied]
    failed = not_applied[0]
    maybe = error.code in ("server_error", "network_error")
    parts = [f"updating {label} failed at its {failed}: {error.message} ({error.code})"]
    if applied:
        parts.append("the value was rotated (RunPod applied it before the failure)")
    if failed == "value":
        parts.append("the value may have been rotated (the request may have gone through)" if maybe
                     else "the value was not rotated")
    if "description" in not_applied:
        parts.append("the description was not sent" if failed == "value" else
                     "the description may not have been updated" if maybe else "the description was not updated")
    rerun = "rerun the task to finish the update"
    if "value" in applied or (failed == "value" and maybe):
        rerun += " (running pods and workers see a new value only at their next boot)"
    return "; ".join(parts) + f"; {rerun}", not_applied, maybe

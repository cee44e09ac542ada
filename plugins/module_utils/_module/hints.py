# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The tasks a failure message names (how to inspect or delete what a task kept), from the modules that exist.

``INFO_MODULES`` maps a module to the ``_info`` module that reads its resources; tests/unit checks that every
module it names exists in plugins/modules. A module without one is named itself, in check mode (a read that
changes nothing).
"""

from __future__ import annotations

INFO_MODULES = {
    "pod": "pod_info",
    "endpoint": "endpoint_info",
    "cluster": "cluster_info",
    "network_volume": "network_volume_info",
    "secret": "secret_info",
}


def info_hint(module: str, selector: str) -> str:
    """The task that shows the resource ``selector`` (``id=<id>`` or ``name=<name>``) of ``module``."""
    info = INFO_MODULES.get(module)
    if info is not None:
        return f"runpod.cloud.{info} {selector}"
    return f"runpod.cloud.{module} {selector} in check mode"


def delete_hint(module: str, selector: str) -> str:
    return f"runpod.cloud.{module} {selector} state=absent"


def kept_remedy(kind: str, resource_id: str, module: str, selector: str) -> str:
    """What a failure says of a resource this task created and kept."""
    return (
        f"{kind} {resource_id} was kept: inspect it with {info_hint(module, selector)}, "
        f"or delete it with {delete_hint(module, selector)}"
    )


def gone_remedy(kind: str, resource_id: str) -> str:
    """What a failed wait says of a resource it saw and then lost (deleted or terminated by someone else)."""
    return f"{kind} {resource_id} no longer exists, so there is nothing left to keep or delete"


def touched_message(action: str, error, kind: str, resource_id: str, state: str, remedy: str) -> str:
    """An API error after this task created or started a resource: what failed, its last state, the remedy."""
    return (
        f"{action}: {error.message} ({error.code}); the last known state of {kind} {resource_id} is {state}; "
        f"{remedy}"
    )

# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The pod module's rules of several fields (one field's are ``_vocab/pod_fields.POD``'s): what the options ask for,
what RunPod would refuse, what differs on an existing pod. What needs an API call is handed in as a function."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._rules.common import wanted_name
from ansible_collections.runpod.cloud.plugins.module_utils._vocab import podstate as _podstate
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.fields import env_strings, with_ssh_port
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import POD, PodSpec

# What a diff shows of an existing pod (what a task changes, its id and status), and of a pod planned in check mode.
DIFF_FIELDS = {"id", "status", *POD.diffed}
PLANNED_FIELDS = set(POD.planned)


# --- checks made before the create (the input rules are ``_api.inputs.PodInput``'s) ----------------------
def sshd_key_problem(params: dict, template_env: Callable[[str], dict | None],
                     account_has_keys: Callable[[], bool]) -> str | None:
    """Why a wait for ssh would wait for an sshd that never starts (RunPod images need a ``PUBLIC_KEY``), or None;
    ``template_env(id)`` (None: unreadable, the create reports it) and ``account_has_keys()`` only when needed."""
    p = params
    if (not (p["wait"] and p["wait_for"] in ("ssh", "login")) or p["own_sshd"] or p["ssh_public_key"]
            or (p["env"] or {}).get("PUBLIC_KEY")):
        return None
    if p["template_id"]:
        env = template_env(p["template_id"])
        if env is None or "PUBLIC_KEY" in env:
            return None
    if account_has_keys():
        return None  # ssh: true sends startSsh, which injects them
    return (
        "wait_for: ssh would wait for an sshd that never starts: RunPod images start sshd only when a PUBLIC_KEY "
        "reaches the container, this task gives none (no ssh_public_key, no PUBLIC_KEY in env) and no SSH key is "
        "registered on the account (GET /v2/account/ssh-keys is empty). Set ssh_public_key, register a key on the "
        "account, set own_sshd: true if the image starts sshd with keys of its own, or use wait_for: running. "
        "Nothing was created."
    )


def create_warnings(params: dict) -> list[str]:
    """What a create with these options may not give (warnings, not failures)."""
    p = params
    warnings = []
    if p["wait"] and p["wait_for"] in ("ssh", "login") and p["compute_type"] == "CPU":
        warnings.append(
            "CPU pods get no managed SSH from RunPod: wait_for: ssh succeeds only if the image starts sshd "
            "itself. Use wait_for: running otherwise."
        )
    if p["cloud_type"] == "COMMUNITY":
        warnings.append(
            "Community cloud hosts do not all have a public IP, so the pod may never get a public port for 22 "
            "and a wait for ssh may run to its timeout; use cloud_type: SECURE (REST v2 cannot ask for a public IP)."
        )
    return warnings


def wanted_env(params: dict, existing: dict | None = None) -> dict | None:
    """The env the task asks for (``ssh_public_key`` as ``PUBLIC_KEY``, an existing key kept; the lease options'
    terms, else the env's, else the pod's: a task that names no lease never drops one); None: untouched."""
    p, existing = params, existing or {}
    terms = _podstate.options_env(p)
    if p["env"] is None and p["ssh_public_key"] is None and not terms:
        return None
    env = env_strings(existing if p["env"] is None and p["ssh_public_key"] is None else p["env"])
    if p["ssh_public_key"]:
        env["PUBLIC_KEY"] = p["ssh_public_key"].strip()
    elif "PUBLIC_KEY" in existing and "PUBLIC_KEY" not in env:
        env["PUBLIC_KEY"] = existing["PUBLIC_KEY"]
    names = _podstate.ENV.values()
    kept = {key: value for key, value in env.items() if key in names} or {
        key: value for key, value in existing.items() if key in names}
    return {key: value for key, value in env.items() if key not in names} | (terms or kept)


def lease_restart_problem(params: dict, pod, changes: dict) -> str | None:
    """Why applying a changed lease would restart a running container the task did not ask to restart; or None."""
    before, after = _podstate.from_env(pod.env), _podstate.from_env(changes.get("env", pod.env))
    if before == after or is_stopped(pod) or params["state"] == "restarted":
        return None
    old, new = (", ".join(f"{key} {value}" for key, value in (terms or {}).items() if value) or "no lease"
                for terms in (before, after))
    return (f"changing the lease of running pod {pod.id} ({old}) -> ({new}) would restart its container: RunPod "
            "applies env changes by restarting it. Set state: restarted to apply it with that restart, or change it "
            "while the pod is stopped. Nothing was changed.")


def pod_spec(params: dict) -> Any:
    """The create's spec; raises ValueError (the spec's own rules) when a create needs more."""
    values = {row.name: params.get(row.option) for row in POD.rows if row.option}
    if values["gpu_requirements"] is not None:
        values["gpu_requirements"] = {key: value for key, value in values["gpu_requirements"].items() if value}
    values = {key: value for key, value in values.items() if value is not None}
    return PodSpec(**dict(values, env=wanted_env(params) or {}))


def pod_changes(params: dict, pod) -> dict:
    """Diffed fields whose wanted value differs from ``pod``: ``{field: wanted}`` (``POD.changes``), with the
    wanted values several options make: the new name, the ports with ``22/tcp``, the env with ``PUBLIC_KEY``."""
    p = params
    wanted = dict(POD.wanted(p), name=wanted_name(p, pod), env=wanted_env(p, pod.env))
    if p["ports"] is not None:
        wanted["ports"] = with_ssh_port(p["ports"], p["ssh"])
    for field in ("image", "registry_id"):  # an empty value asks for nothing
        wanted[field] = wanted.get(field) or None
    changes = POD.changes(wanted, pod)
    if not (pod.volume_gb or pod.network_volume_id or "volume_gb" in changes):
        changes.pop("volume_mount_path", None)  # no mount to move: a path alone would be an empty update
    return changes


def whole_mount(pod, changes: dict) -> dict:
    """REST v2 sets a mount whole (size and path, or volume id and path): add the part that stays."""
    changes = dict(changes)
    if pod.network_volume_id:
        if "volume_mount_path" in changes:
            changes["network_volume_id"] = pod.network_volume_id
    elif pod.volume_gb:
        changes.setdefault("volume_gb", pod.volume_gb)
        changes.setdefault("volume_mount_path", pod.volume_mount_path)
    return changes


def immutable_warning(params: dict, pod) -> str | None:
    """The warning for fields the task wants otherwise but RunPod cannot change on an existing pod; or None."""
    p = params
    differences = []
    if p["gpu_type_ids"] and pod.gpu_type and pod.gpu_type not in p["gpu_type_ids"]:
        differences.append(f"GPU type {pod.gpu_type!r} is not in gpu_type_ids")
    if p["gpu_count"] and pod.gpu_count and p["gpu_count"] != pod.gpu_count:
        differences.append(f"gpu_count is {pod.gpu_count}, not {p['gpu_count']}")
    if p["cpu_flavor_ids"] and pod.cpu_flavor and pod.cpu_flavor not in p["cpu_flavor_ids"]:
        differences.append(f"CPU flavor {pod.cpu_flavor!r} is not in cpu_flavor_ids")
    if p["network_volume_id"] and p["network_volume_id"] != pod.network_volume_id:
        differences.append(f"network volume is {pod.network_volume_id!r}, not {p['network_volume_id']!r}")
    if not differences:
        return None
    return (
        f"pod {pod.id} differs from the task in fields RunPod cannot change on an existing pod: "
        f"{'; '.join(differences)}. They were left as they are; delete the pod "
        f"(runpod.cloud.pod id={pod.id} state=absent) and run the task again to get the new settings."
    )


def is_stopped(pod) -> bool:
    """A pod ``start`` brings back."""
    return pod.status.upper() in ("EXITED", "ERROR")


def is_booting(pod) -> bool:
    """A pod still provisioning or starting: it gets a fresh container anyway."""
    return pod.status.upper() in ("PROVISIONING", "STARTING")


def cost_warning(cap: float | None, cost: float | None, what: str) -> str | None:
    """The warning for a created resource billed above ``max_price_per_hr`` (list and billed price can differ)."""
    if cap is None or cost is None or cost <= cap + 1e-9:
        return None
    return (
        f"{what} is billed {cost:g} USD/h, above max_price_per_hr {cap:g}: the catalog listed it within the cap, but "
        "the billed rate differs. It was kept; delete it if the rate is not acceptable."
    )

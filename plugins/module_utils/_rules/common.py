# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The rules every resource shares (pure Python)."""

from __future__ import annotations

from typing import Any


def wanted_name(params: dict, current: Any) -> str | None:
    """The new name of ``current`` or None: only a task naming it by ``id`` renames it (by name, it has that name)."""
    name = params.get("name")
    return name if params.get("id") and name and name != current.name else None


def rename_change(params: dict, current: Any) -> dict:
    return {"name": name} if (name := wanted_name(params, current)) else {}


def secret_placeholder(name: str) -> str:
    """The env value RunPod replaces with secret ``name``'s value when a container boots. Built here, in Python, so
    a playbook never holds it: Ansible would try to template ``{{ ... }}`` itself."""
    return "{{ RUNPOD_SECRET_" + name + " }}"


def with_secret_env(params: dict) -> dict:
    """``params`` with ``secret_env`` (env name -> secret name) merged into ``env`` as placeholders and cleared, so
    later steps (and a fleet's members) see plain env values; a name in both is a ValueError (which wins is a guess)."""
    secret_env = params.get("secret_env")
    if not secret_env:
        return params
    env = dict(params.get("env") or {})
    if both := sorted(set(env) & set(secret_env)):
        raise ValueError(
            f"{', '.join(both)} given in both env and secret_env; give each variable in one of them (secret_env "
            "for a value that comes from an account secret)"
        )
    env.update({key: secret_placeholder(name) for key, name in secret_env.items()})
    return dict(params, env=env, secret_env=None)

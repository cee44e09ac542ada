# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The handoff of a wait from the module to the action plugin on the controller (docs/dev/architecture.md,
"Waits on the controller"): what the module returns instead of waiting, and how it knows the controller asked."""

from __future__ import annotations

import hashlib

from ansible_collections.runpod.cloud.plugins.module_utils._module.specs import CONNECTION_KEYS

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
    "pod_count", "logs", "host_key_checking", "ssh_private_key_file",
)


def key_fingerprint(api_key: str | None) -> str:
    """A one-way fingerprint of the api key: tells the module the controller waits with the same key."""
    return hashlib.sha256(str(api_key or "").encode("utf-8")).hexdigest()

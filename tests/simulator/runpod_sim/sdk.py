# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""RunPod's own Python SDK (``runpod``, pinned in requirements-dev.txt) pointed at a running simulator.

A second client nobody on this project wrote: its GraphQL queries encode RunPod's schema, so the tests
that drive it check the simulator's GraphQL surface against RunPod's own reading of it.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

# The SDK posts to ``{RUNPOD_API_BASE_URL}/graphql`` (runpod/api/graphql.py), read on every call.
BASE_URL_VARIABLE = "RUNPOD_API_BASE_URL"


@contextlib.contextmanager
def runpod_sdk(sim: Any, home: Path) -> Iterator[ModuleType]:
    """Yield the ``runpod`` module talking to ``sim`` (a SimProcess), with ``home`` as its HOME.

    The SDK reads ``~/.runpod/config.toml`` for a key (its import already did, so the path is pointed
    into ``home`` too) and its import runs ``logging.basicConfig``: both are undone on exit, with the
    environment and the module's global ``api_key``, so the rest of the test process is untouched.
    """
    saved_env = {name: os.environ.get(name) for name in ("HOME", BASE_URL_VARIABLE)}
    root = logging.getLogger()
    saved_logging = (root.level, list(root.handlers))
    os.environ["HOME"] = str(home)
    os.environ[BASE_URL_VARIABLE] = sim.base_url
    try:
        import runpod
        from runpod.cli.groups.config import functions as sdk_config

        root.setLevel(saved_logging[0])
        root.handlers[:] = saved_logging[1]
        saved_credentials, saved_key = sdk_config.CREDENTIAL_FILE, runpod.api_key
        sdk_config.CREDENTIAL_FILE = str(home / ".runpod" / "config.toml")
        runpod.api_key = sim.api_key
        try:
            yield runpod
        finally:
            sdk_config.CREDENTIAL_FILE, runpod.api_key = saved_credentials, saved_key
    finally:
        for name, value in saved_env.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value

# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""``make_backend``: the one place that knows every backend (so ``_backend`` never imports its subclasses)."""

from __future__ import annotations

from ansible_collections.runpod.cloud.plugins.module_utils._backend import Backend, resolve_options
from ansible_collections.runpod.cloud.plugins.module_utils._backend_v1 import BackendV1
from ansible_collections.runpod.cloud.plugins.module_utils._backend_v2 import BackendV2
from ansible_collections.runpod.cloud.plugins.module_utils._client import Client

BACKENDS: dict[str, type[Backend]] = {"v2": BackendV2, "v1": BackendV1}


def make_backend(options, *, transport=None, clock=None, rng=None) -> Backend:
    """Build the backend named by ``options['api_version']`` (default v2)."""
    resolved = resolve_options(options)
    client = Client(
        resolved["api_key"],
        resolved["api_url"],
        timeout=resolved["request_timeout"],
        validate_certs=resolved["validate_certs"],
        transport=transport,
        clock=clock,
        rng=rng,
    )
    return BACKENDS[resolved["api_version"]](client, resolved)

# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""``make_backend``: the REST v2 backend over a client built from the connection options."""

from __future__ import annotations

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import Client
from ansible_collections.runpod.cloud.plugins.module_utils._backend.core import Backend, resolve_options
from ansible_collections.runpod.cloud.plugins.module_utils._backend.rest import BackendV2


def make_backend(options, *, transport=None, clock=None, rng=None) -> Backend:
    """Build the backend; ``resolve_options`` refuses what it cannot serve (REST v1) before any client exists."""
    resolved = resolve_options(options)
    client = Client(
        resolved["api_key"],
        resolved["api_url"],
        timeout=resolved["request_timeout"],
        validate_certs=resolved["validate_certs"],
        transport=transport,
        clock=clock,
        rng=rng,
        other_urls=(resolved["serverless_url"],),
    )
    return BackendV2(client, resolved)

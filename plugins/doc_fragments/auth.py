# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations


class ModuleDocFragment:
    # Paired with AUTH_ARGUMENT_SPEC in plugins/module_utils/_module/specs.py: change both together.
    DOCUMENTATION = r"""
options:
  api_key:
    description:
      - RunPod API key. A task needs one, but not necessarily in this option.
      - Falls back to the E(RUNPOD_API_KEY) environment variable. Prefer the environment variable,
        or set it once for every module with C(module_defaults) and the C(group/runpod.cloud.all) action group
        from a vaulted variable.
      - Never logged and never included in any message or result.
      - A task with no key from either fails before any call, with C(code=no_credentials).
    type: str
  api_version:
    description:
      - Deprecated; will be removed in 1.0.0. RunPod retired REST v1 on 2026-11-15, so the collection speaks REST v2
        (and the serverless runtime API) only.
      - V(v2) is accepted with a deprecation warning; any other value fails with C(code=bad_request) before any
        API call, with a message that says what to change.
      - Falls back to the E(RUNPOD_API_VERSION) environment variable.
    type: str
  api_url:
    description:
      - Base URL of the RunPod REST v2 API.
      - Defaults to V(https://api.runpod.io/v2).
      - Falls back to the E(RUNPOD_API_URL) environment variable.
      - A plain C(http://) URL to a host other than loopback (C(localhost), C(127.0.0.0/8), C(::1)) gets a warning,
        because the API key would travel unencrypted.
    type: str
  serverless_url:
    description:
      - Base URL of the serverless data plane, where endpoint health is read.
      - Defaults to V(https://api.runpod.ai/v2).
      - Falls back to the E(RUNPOD_SERVERLESS_URL) environment variable.
    type: str
  validate_certs:
    description:
      - Whether to verify the TLS certificates of the API.
      - V(false) gets a warning on every run, because anyone on the network path could pose as the API and
        read the key.
    type: bool
    default: true
  request_timeout:
    description:
      - Timeout in seconds of each HTTP request to the API.
      - A number above 0 and at most 3600; anything else (0, negative, V(nan), V(inf)) fails with C(code=bad_request)
        before any request.
    type: float
    default: 30
requirements:
  - httpx >= 0.27.0
  - pydantic >= 2.6.0
"""

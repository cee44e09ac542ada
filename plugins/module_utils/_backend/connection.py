# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The connection options and the ``Backend`` (``make_backend``): one client and one object per resource, each in a
file this one does not import (docs/dev/architecture.md, "Import cost"). ``Gpus`` is here: pods, clusters and
gpu_type_info read it, and a file of its own would be one more for each of their tasks."""

from __future__ import annotations

import ipaddress
import math
from typing import Any
from urllib.parse import urlsplit

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import Client

DEFAULT_API_URL = "https://api.runpod.io/v2"
V1_RETIRED = (
    "RunPod retired REST v1 on 2026-11-15 (and GraphQL goes in early 2027), so runpod.cloud speaks REST v2 only: "
    "remove api_version (and RUNPOD_API_VERSION, graphql_url, RUNPOD_GRAPHQL_URL) from the play, and point api_url "
    "at REST v2 (https://api.runpod.io/v2) if it names a v1 URL"
)
DEFAULT_SERVERLESS_URL = "https://api.runpod.ai/v2"
DEFAULT_REQUEST_TIMEOUT = 30.0
# A per-request timeout above an hour is a typo; far larger values overflow the socket layer.
MAX_REQUEST_TIMEOUT = 3600.0


def resolve_options(options: dict | None) -> dict:
    """Connection options with their defaults; any ``api_version`` but v2 is a ValueError (``V1_RETIRED``)."""
    options = dict(options or {})
    version = str(options.get("api_version") or "").strip().lower()
    if version and version != "v2":
        raise ValueError(f"api_version {options['api_version']!r} is not available: {V1_RETIRED}")
    validate_certs = options.get("validate_certs")
    return {
        "api_key": options.get("api_key") or "",
        "api_url": (options.get("api_url") or DEFAULT_API_URL).rstrip("/"),
        "serverless_url": (options.get("serverless_url") or DEFAULT_SERVERLESS_URL).rstrip("/"),
        "validate_certs": True if validate_certs is None else bool(validate_certs),
        "request_timeout": request_timeout(options.get("request_timeout")),
    }


def request_timeout(value):
    """``request_timeout`` as seconds: a finite number in (0, 3600], the default for None or ""; else a ValueError
    (nan, inf, 0 and negatives used to reach the socket layer)."""
    if value is None or value == "":
        return DEFAULT_REQUEST_TIMEOUT
    try:
        seconds = None if isinstance(value, bool) else float(value)
    except (TypeError, ValueError):
        seconds = None
    if seconds is None or not math.isfinite(seconds) or not 0 < seconds <= MAX_REQUEST_TIMEOUT:
        raise ValueError(
            f"request_timeout must be a number of seconds above 0 and at most {MAX_REQUEST_TIMEOUT:g}, got {value!r}"
        )
    return seconds


def is_loopback_host(host):
    """True for ``localhost`` and loopback IP literals (127.0.0.0/8, ::1)."""
    host = (host or "").strip("[]").rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def transport_warnings(resolved):
    """Warnings for ``resolve_options`` settings that expose the API key: plain http off loopback, unverified TLS."""
    warnings = [
        f"{option} {resolved[option]} uses plain http to a host that is not loopback: the API key is sent unencrypted "
        "and anyone on the network path can read it; use https"
        for option in ("api_url", "serverless_url")
        if (parts := urlsplit(resolved[option])).scheme.lower() == "http" and not is_loopback_host(parts.hostname)
    ]
    if not resolved["validate_certs"]:
        warnings.append(
            "validate_certs is false: the API's TLS certificate is not checked, so anyone on the network path "
            "can pose as the API and read the API key; use it only against a test control plane"
        )
    return warnings


class Gpus:
    """The GPU catalog and the data centers (``/catalog``), read raw (``_api/catalog`` and ``placement`` read them)."""

    def __init__(self, client):
        self.client = client

    def catalog(self, *, cloud=None, count=None, cuda_versions=(), min_cuda_version=None, attempts=1, product="POD"):
        """Pod (or cluster) stock scoped to the cloud, GPU count and CUDA constraints; one attempt by default (the
        catalog is a hint; with gpu_requirements or max_price_per_hr a failed read refuses the create)."""
        params: dict[str, Any] = {"include": "AVAILABILITY", "product": product}
        if cuda_versions:
            params["cudaVersions"] = ",".join(cuda_versions)
        elif min_cuda_version:
            params["minCudaVersion"] = min_cuda_version
        if cloud:
            params["cloud"] = cloud.upper()
        if count and int(count) > 1:
            params["count"] = int(count)
        return self.client.request("GET", "catalog/gpus", params=params, attempts=attempts)

    def data_centers(self, attempts=None):
        return self.client.request("GET", "catalog/datacenters", params={"include": "GPU_AVAILABILITY"},
                                   attempts=attempts)


# What a resource object is built from besides the client: backend attributes (``gpus``, ``templates``: used too).
BUILT_FROM = {
    "pods": ("gpus",),
    "clusters": ("templates", "gpus"),
    "endpoints": ("serverless_url",),
    "jobs": ("serverless_url", "request_timeout"),
}


class Backend:
    """The one client and the resource objects over it (docs/dev/interfaces.md): ``backend.<class name in lower
    case>`` builds one of the classes ``uses`` on first use. No state but the client's: a fleet's members share one."""

    def __init__(self, client, options, uses=()):
        self.client, self.options = client, options
        self.serverless_url = options.get("serverless_url") or DEFAULT_SERVERLESS_URL
        self.request_timeout = options.get("request_timeout") or DEFAULT_REQUEST_TIMEOUT
        self.classes: dict[str, Any] = {cls.__name__.lower(): cls for cls in uses}

    def __getattr__(self, name):
        # Only called for what is not set yet: a resource object, built once and kept as an attribute.
        cls = self.__dict__.get("classes", {}).get(name)
        if cls is None:
            raise AttributeError(f"this task's backend has no {name!r}: add its class to the uses of the module "
                                 f"(or the waiter) that reads it")
        value = cls(self.client, *(getattr(self, attribute) for attribute in BUILT_FROM.get(name, ())))
        setattr(self, name, value)
        return value

    def __repr__(self):
        return f"Backend(api_url={self.client.base_url!r})"

    @property
    def requests_made(self):
        """HTTP requests sent so far (every attempt, retries included)."""
        return self.client.requests_made

    def close(self):
        self.client.close()


def make_backend(options, *, uses=(), transport=None, clock=None, rng=None) -> Backend:
    """The backend for the resource classes ``uses`` (``resolve_options`` refuses REST v1 before any client)."""
    resolved = resolve_options(options)
    client = Client(resolved["api_key"], resolved["api_url"], timeout=resolved["request_timeout"],
                    validate_certs=resolved["validate_certs"], transport=transport, clock=clock, rng=rng,
                    other_urls=(resolved["serverless_url"],))
    return Backend(client, resolved, uses)

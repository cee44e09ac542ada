# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The backend over RunPod's REST v2 API (and the serverless runtime): the calls shared by every resource.

Backends return ``_models`` views, so modules, the inventory plugin and the poll engine never look at raw API
payloads. RunPod retired REST v1 on 2026-11-15 (docs/dev/api-notes.md, section 1): a request for it fails in
``resolve_options``, before any client exists.
"""

from __future__ import annotations

import ipaddress
import math
from operator import attrgetter
from typing import Any
from urllib.parse import urlsplit

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError, post_create
from ansible_collections.runpod.cloud.plugins.module_utils._api.payloads import (
    ENDPOINT,
    POD,
    TEMPLATE,
    health_from_payload,
)
from ansible_collections.runpod.cloud.plugins.module_utils._backend.collection import collection_reads, quote_id
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.normalize import env_strings

API_VERSION = "v2"
DEFAULT_API_URL = "https://api.runpod.io/v2"
# The one answer to a playbook that still asks for REST v1 (docs/dev/api-notes.md, section 1).
V1_RETIRED = (
    "RunPod retired REST v1 on 2026-11-15 (and GraphQL goes in early 2027), so runpod.cloud speaks REST v2 only: "
    "remove api_version (and RUNPOD_API_VERSION, graphql_url, RUNPOD_GRAPHQL_URL) from the play, and point api_url "
    "at REST v2 (https://api.runpod.io/v2) if it names a v1 URL"
)
DEFAULT_SERVERLESS_URL = "https://api.runpod.ai/v2"
DEFAULT_REQUEST_TIMEOUT = 30.0
# A per-request timeout above an hour is a typo; far larger values overflow the socket layer.
MAX_REQUEST_TIMEOUT = 3600.0
# Statuses after which a pod is gone for good; such pods are not "live" for lookups by name.
GONE_POD_STATUSES = frozenset(("TERMINATED",))


def resolve_options(options: dict | None) -> dict:
    """Connection options with their defaults (docs/dev/api-notes.md, section 1).

    Raises ValueError with ``V1_RETIRED`` for any ``api_version`` but v2 (the deprecated option), so a playbook
    written for REST v1 stops before any request.
    """
    options = dict(options or {})
    version = str(options.get("api_version") or "").strip().lower()
    if version and version != API_VERSION:
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
    """``request_timeout`` as seconds: a finite number in (0, 3600]; None or "" give the default.

    Raises ValueError with the user-facing message (nan, inf, 0 and negatives used to reach the socket layer).
    """
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
    """Warnings for connection settings that expose the API key: plain http off loopback, unverified TLS.

    ``resolved`` is the output of ``resolve_options``.
    """
    urls = [("api_url", resolved["api_url"]), ("serverless_url", resolved["serverless_url"])]
    warnings = []
    for option, url in urls:
        parts = urlsplit(url)
        if parts.scheme.lower() == "http" and not is_loopback_host(parts.hostname):
            warnings.append(
                f"{option} {url} uses plain http to a host that is not loopback: the API key is sent unencrypted "
                "and anyone on the network path can read it; use https"
            )
    if not resolved["validate_certs"]:
        warnings.append(
            "validate_certs is false: the API's TLS certificate is not checked, so anyone on the network path "
            "can pose as the API and read the API key; use it only against a test control plane"
        )
    return warnings


class Backend:
    """Abstract backend; see docs/dev/interfaces.md for the method table and the API cost of each call."""

    # The subclass names its paths and body builders (``*_body``); ``_payloads`` reads the answers.
    endpoints_path = ""
    templates_path = "templates"
    # (Each a function of the fields; ``Any`` because subclasses bind plain functions.)
    pod_create_body: Any = None
    pod_update_body: Any = None
    endpoint_body: Any = None

    def __init__(self, client, options):
        self.client = client
        self.options = options
        self.serverless_url = options.get("serverless_url") or DEFAULT_SERVERLESS_URL
        self.request_timeout = options.get("request_timeout") or DEFAULT_REQUEST_TIMEOUT

    def __repr__(self):
        return f"{type(self).__name__}(api_url={self.client.base_url!r})"

    requests_made = property(attrgetter("client.requests_made"),
                             doc="HTTP requests sent so far (every attempt, retries included).")
    request_log = property(attrgetter("client.request_log"),
                           doc="``(method, path, status-or-code)`` per request sent; no query strings, no headers.")

    def close(self):
        self.client.close()

    # -- payload readers (one table per view: ``_payloads``) ----------------------------------------------

    def view_pod(self, payload):
        return POD.read(payload)

    def view_endpoint(self, payload):
        return ENDPOINT.read(payload)

    def view_template(self, payload):
        return TEMPLATE.read(payload)

    # -- pods --------------------------------------------------------------------------------------

    def list_pods(self, runtime=True, attempts=None, select=None):
        """Every listed pod (one list read). ``select(id, name) -> bool`` keeps only matching pods."""
        raise NotImplementedError

    def get_pod(self, pod_id, attempts=None):
        raise NotImplementedError

    def find_pods(self, name, attempts=None):
        """Live pods (not terminated) named exactly ``name``."""
        return [
            pod
            for pod in self.list_pods(attempts=attempts)
            if pod.name == name and pod.status.upper() not in GONE_POD_STATUSES
        ]

    def find_pods_named(self, names, attempts=None):
        """``{name: [live pods named so]}`` for every name in ``names``, from one list read (a fleet's lookup)."""
        found: dict[str, list[Any]] = {name: [] for name in names}
        for pod in self.list_pods(attempts=attempts, select=lambda _pod_id, name: name in found):
            if pod.name in found and pod.status.upper() not in GONE_POD_STATUSES:
                found[pod.name].append(pod)
        return found

    def pod_candidates(self, spec: Any, type_ids: list[str] | None = None) -> list[Any]:
        """The candidates a create tries (of ``type_ids``, else the spec's), before the catalog orders them."""
        from ansible_collections.runpod.cloud.plugins.module_utils._backend import placement as _placement

        return _placement.cross(spec.candidates() if type_ids is None else type_ids)

    def stock_reader(self, spec: Any, shared_read: Any = None) -> Any:
        """A function reading the catalog's stock for ``spec`` (through ``shared_read``), or None (no catalog)."""
        return None

    def create_pod(self, spec: Any, shared_read: Any = None) -> tuple[Any, dict]:
        """Create on the first candidate that can be placed: the catalog (when there is one) orders the
        candidates, then one POST per candidate, each answer handled by the table in ``_placement``.

        Returns ``(pod, placement)``: the created pod and what was tried (``_placement.Placement.as_dict``); a
        ``RunPodError`` raised once placement began carries the same dict as ``placement``. A 5xx or a lost
        connection may have created a pod that bills: it is raised ``maybe_created`` and never re-sent (the
        caller looks the pod up by name). ``shared_read(read)`` answers the catalog read for a fleet's members.
        """
        from ansible_collections.runpod.cloud.plugins.module_utils._api.capabilities import cpu_pod_problem
        from ansible_collections.runpod.cloud.plugins.module_utils._backend import offers as _offers  # creates only
        from ansible_collections.runpod.cloud.plugins.module_utils._backend import placement as _placement

        if problem := cpu_pod_problem(spec.model_dump()):
            raise ValueError(problem)
        placement = _placement.Placement()
        candidates = _placement.plan(self.pod_candidates(spec), self.stock_reader(spec, shared_read), placement,
                                     _offers.pod_choice(spec), lambda type_ids: self.pod_candidates(spec, type_ids))

        def post(candidate):
            body = self.pod_create_body(spec, candidate.type_id, candidate.data_center_id)
            return post_create(self.client, "pods", body)

        created = _placement.place(candidates, post, placement)
        try:
            return self.view_pod(created), placement.as_dict()
        except RunPodError as error:  # an answer without a pod: the pod exists all the same
            raise _placement.attach(placement, error) from None

    def update_pod(self, pod_id, changes):
        payload = self.client.request("PATCH", f"pods/{quote_id(pod_id)}", json=self.pod_update_body(changes))
        return self.view_pod(payload)

    def _action(self, pod_id, action):
        raise NotImplementedError

    def start_pod(self, pod_id):
        return self._action(pod_id, "start")

    def stop_pod(self, pod_id):
        return self._action(pod_id, "stop")

    def restart_pod(self, pod_id):
        return self._action(pod_id, "restart")

    def delete_pod(self, pod_id):
        self.client.request("DELETE", f"pods/{quote_id(pod_id)}")

    # -- serverless endpoints ------------------------------------------------------------------------

    list_endpoints, get_endpoint, find_endpoints = collection_reads("endpoints_path", "endpoints", "endpoint", ENDPOINT)

    def create_endpoint(self, spec):
        # The endpoint may exist after a 5xx: callers look it up by name instead of sending the create again.
        body = self.endpoint_body(spec.model_dump(), creating=True)
        return self.view_endpoint(post_create(self.client, self.endpoints_path, body))

    def update_endpoint(self, endpoint_id, changes):
        body = self.endpoint_body(dict(changes), creating=False)
        path = f"{self.endpoints_path}/{quote_id(endpoint_id)}"
        return self.view_endpoint(self.client.request("PATCH", path, json=body))

    def delete_endpoint(self, endpoint_id):
        self.client.request("DELETE", f"{self.endpoints_path}/{quote_id(endpoint_id)}")

    def endpoint_health(self, endpoint_id, attempts=1):
        """``/health`` on the serverless data plane; 404 raises ``not_found`` (propagation lag after create)."""
        if not endpoint_id:
            raise ValueError("endpoint_health needs an endpoint id")
        url = f"{self.serverless_url}/{quote_id(endpoint_id)}/health"
        return health_from_payload(self.client.request("GET", url, attempts=attempts))

    def endpoint_workers(self, endpoint_id, attempts=None):
        raise NotImplementedError

    def endpoint_release(self, endpoint_id, attempts=None):
        raise NotImplementedError

    # -- templates ---------------------------------------------------------------------------------

    def template_body(self, fields, creating):
        """A template create/update body (``build_template_body``)."""
        return build_template_body(fields, creating)

    list_templates, get_template, find_templates = collection_reads("templates_path", "templates", "template", TEMPLATE)

    def create_template(self, spec):
        body = self.template_body(spec.model_dump(), creating=True)
        return self.view_template(self.client.request("POST", "templates", json=body))

    def update_template(self, template_id, changes):
        body = self.template_body(dict(changes), creating=False)
        return self.view_template(self.client.request("PATCH", f"templates/{quote_id(template_id)}", json=body))

    def delete_template(self, template_id):
        self.client.request("DELETE", f"templates/{quote_id(template_id)}")


# -- request bodies shared by both backends ------------------------------------------------------------


def mounts_body(volume_gb: int | None, volume_mount_path: str | None, network_volume_id: str | None) -> dict | None:
    """The REST v2 ``mounts`` block of a pod or cluster create (None when nothing is mounted)."""
    if network_volume_id:
        return {"network": [{"volumeId": network_volume_id, "path": volume_mount_path or "/workspace"}]}
    if volume_gb:
        return {"persistent": {"size": int(volume_gb), "path": volume_mount_path or "/workspace"}}
    return None


def listed(value: Any) -> list | None:
    return None if value is None else list(value)


# The spec fields that pod creates, pod updates, templates and endpoints send as one key each: field -> (convert, key);
# the key may come with its own convert. Each body builder chooses the fields it sends and when (RunPod rejects keys
# it does not know: docs/dev/api-notes.md, section 3.2).
BODY_KEYS: dict[str, tuple] = {
    "name": (None, "name"),
    "image": (None, "image"),
    "template_id": (None, "templateId"),
    "cloud_type": (str.upper, "cloud"),
    "container_disk_gb": (int, "disk"),
    "ports": (listed, "ports"),
    "env": (env_strings, "env"),
    # The start command is one string; "" clears it.
    "docker_args": (None, ("args", lambda args: args or "")),
    "registry_id": (None, "registry"),
    "locked": (None, "locked"),
    "serverless": (None, "serverless"),
    "data_center_ids": (listed, "dataCenterIds"),
}


def body_keys(values: dict) -> dict:
    """``values`` (spec field -> value: the fields the caller sends) under REST v2's keys, converted."""
    body = {}
    for field, value in values.items():
        convert, key = BODY_KEYS[field]
        if isinstance(key, tuple):
            key, convert = key
        body[key] = value if convert is None else convert(value)
    return body


def given(spec: Any, fields: tuple, keep: Any = bool) -> dict:
    """The ``fields`` of ``spec`` a create sends: those whose value passes ``keep`` (set and not empty by default)."""
    return {field: getattr(spec, field) for field in fields if keep(getattr(spec, field))}


def only(fields: dict, allowed: tuple, message: str) -> dict:
    """``fields`` when every key is ``allowed``; else ValueError ``<message>: <the others>``."""
    unknown = sorted(set(fields) - set(allowed))
    if unknown:
        raise ValueError(f"{message}: {', '.join(unknown)}")
    return fields


TEMPLATE_FIELDS = ("name", "image", "serverless", "container_disk_gb", "env", "ports", "docker_args", "registry_id")


def build_template_body(fields: dict, creating: bool) -> dict:
    """A template create/update body from ``TemplateSpec``-vocabulary ``fields``."""
    only(fields, TEMPLATE_FIELDS, "unknown template field(s)")
    return body_keys({key: value for key, value in fields.items() if sendable(value, creating)})


def sendable(value: Any, creating: bool) -> bool:
    """Whether a field of a create or an update body is sent: set, and on create not an empty default (on update an
    explicit empty value clears)."""
    return value is not None and not (creating and value in ({}, [], ""))


__all__ = [
    "API_VERSION",
    "DEFAULT_API_URL",
    "DEFAULT_SERVERLESS_URL",
    "V1_RETIRED",
    "Backend",
    "RunPodError",
    "quote_id",
    "request_timeout",
    "resolve_options",
    "transport_warnings",
]

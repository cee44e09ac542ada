"""The connection (``_backend/connection.py``): options, the v1 refusal, transport warnings, request counts."""

from __future__ import annotations

import pytest
from payloads import PODS, Router, backend_with

from ansible_collections.runpod.cloud.plugins.module_utils._backend.connection import (
    DEFAULT_API_URL,
    DEFAULT_SERVERLESS_URL,
    V1_RETIRED,
    Backend,
    resolve_options,
    transport_warnings,
)

# -- options ---------------------------------------------------------------------------------------


def test_resolve_options_defaults_are_rest_v2():
    defaults = resolve_options({"api_key": "k"})
    assert defaults == {
        "api_key": "k",
        "api_url": DEFAULT_API_URL,
        "serverless_url": DEFAULT_SERVERLESS_URL,
        "validate_certs": True,
        "request_timeout": 30.0,
    }
    assert DEFAULT_API_URL == "https://api.runpod.io/v2"
    custom = resolve_options({"api_url": "http://127.0.0.1:9/v2/", "request_timeout": "7", "validate_certs": False})
    assert custom["api_url"] == "http://127.0.0.1:9/v2"
    assert custom["request_timeout"] == 7.0 and custom["validate_certs"] is False
    # A leftover graphql_url is neither kept nor used.
    assert "graphql_url" not in resolve_options({"graphql_url": "https://graphql.example.test/graphql"})


@pytest.mark.parametrize("version", ["v1", "V1 ", "v3", "rest"])
def test_resolve_options_refuses_any_api_version_but_v2_with_the_retirement_message(version):
    with pytest.raises(ValueError) as caught:
        resolve_options({"api_key": "k", "api_version": version})
    message = str(caught.value)
    assert "RunPod retired REST v1 on 2026-11-15" in message and message.endswith(V1_RETIRED)
    assert repr(version) in message


# An empty value (``RUNPOD_API_VERSION=``) is as good as unset.
@pytest.mark.parametrize("version", [None, "", "v2", "V2", " v2 "])
def test_resolve_options_accepts_no_api_version_or_v2(version):
    resolved = resolve_options({"api_key": "k", "api_version": version})
    assert resolved["api_url"] == DEFAULT_API_URL and "api_version" not in resolved


def test_make_backend_refuses_v1_before_any_request():
    router = Router()
    with pytest.raises(ValueError, match="RunPod retired REST v1 on 2026-11-15"):
        backend_with(router, api_version="v1")
    assert router.calls == []


@pytest.mark.parametrize("value", [-1, 0, "0", float("nan"), "nan", float("inf"), "-inf", 1e300, 3600.5, "soon", True])
def test_request_timeout_must_be_a_positive_finite_number(value):
    with pytest.raises(ValueError, match=r"request_timeout must be a number of seconds above 0 and at most 3600"):
        resolve_options({"request_timeout": value})


@pytest.mark.parametrize("value", [0.001, "2.5", 3600])
def test_request_timeout_accepts_positive_numbers(value):
    assert resolve_options({"request_timeout": value})["request_timeout"] == float(value)


def test_transport_warnings_for_plain_http_off_loopback_and_unverified_tls():
    def warned(**options):
        return transport_warnings(resolve_options(options))

    assert warned() == []
    for loopback in ("http://127.0.0.1:9/v2", "http://127.9.0.1/v2", "http://localhost:8080/v2", "http://[::1]:9/v2"):
        assert warned(api_url=loopback) == [], loopback
    (only,) = warned(api_url="http://api.example.test/v2")
    assert only.startswith("api_url http://api.example.test/v2 uses plain http") and "API key" in only
    # A leftover GraphQL URL is never called, so it carries no key to warn about.
    assert warned(graphql_url="http://10.0.0.1/graphql") == []
    assert len(warned(serverless_url="HTTP://sls.example.test")) == 1
    (tls,) = warned(validate_certs=False)
    assert tls.startswith("validate_certs is false")


def test_make_backend_picks_v2_by_default_and_counts_requests():
    router = Router().add("GET", PODS, {"pods": []})
    backend = backend_with(router)
    assert isinstance(backend, Backend)
    assert backend.pods.list() == []
    assert backend.requests_made == 1
    assert backend.client.request_log == [("GET", "pods", 200)]
    assert "k-test-123456" not in repr(backend)

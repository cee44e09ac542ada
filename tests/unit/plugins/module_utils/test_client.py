"""The HTTP client: error mapping, bounded retries on a fake clock, and the API key never leaking."""

from __future__ import annotations

import json
import random
import ssl
import traceback

import httpx
import pytest
from helpers.fakes import FakeClock, full_backend
from hypothesis import given
from hypothesis import strategies as st

from ansible_collections.runpod.cloud.plugins.module_utils._api import client as _client
from ansible_collections.runpod.cloud.plugins.module_utils._api.client import (
    COLLECTION_VERSION,
    DEFAULT_USER_AGENT,
    Client,
    RunPodError,
    message_from_body,
    parse_retry_after,
)

SECRET = "rpa_SECRETKEY1234567890"
BASE = "https://api.example.test/v2"


class Script:
    """A MockTransport handler answering from a list of responses (or exceptions), recording requests."""

    def __init__(self, *answers):
        self.answers = list(answers)
        self.requests = []

    def __call__(self, request):
        self.requests.append(request)
        answer = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        if isinstance(answer, Exception):
            raise answer
        if callable(answer):
            return answer(request)
        return answer


def make_client(*answers, **kwargs):
    script = Script(*answers)
    clock = FakeClock()
    client = Client(
        SECRET,
        BASE,
        transport=httpx.MockTransport(script),
        clock=clock,
        rng=random.Random(7),
        **kwargs,
    )
    return client, script, clock


def problem(status, detail, title="Error", errors=None, headers=None):
    body = {"title": title, "status": status, "detail": detail}
    if errors:
        body["errors"] = errors
    return httpx.Response(
        status, content=json.dumps(body), headers={"Content-Type": "application/problem+json", **(headers or {})}
    )


def test_sends_bearer_auth_user_agent_and_joins_paths_under_the_base_url():
    client, script, _ignored = make_client(httpx.Response(200, json={"pods": []}))
    assert client.request("GET", "pods") == {"pods": []}
    request = script.requests[0]
    assert str(request.url) == "https://api.example.test/v2/pods"
    assert request.headers["Authorization"] == f"Bearer {SECRET}"
    assert request.headers["User-Agent"] == f"runpod.cloud/{COLLECTION_VERSION} (+ansible)" == DEFAULT_USER_AGENT
    assert client.requests_made == 1
    assert client.request_log == [("GET", "pods", 200)]


def test_absolute_urls_go_to_their_own_host_with_the_same_auth():
    client, script, _ignored = make_client(httpx.Response(200, json={"workers": {}}))
    client.request("GET", "https://api.runpod.example/v2/ep-1/health")
    assert str(script.requests[0].url) == "https://api.runpod.example/v2/ep-1/health"
    assert script.requests[0].headers["Authorization"] == f"Bearer {SECRET}"


def test_empty_body_and_204_decode_to_none():
    client, _ignored, _ignored = make_client(httpx.Response(204))
    assert client.request("DELETE", "pods/p1") is None


def test_request_timeout_is_passed_per_request_and_overridable():
    seen = []

    def handler(request):
        seen.append(request.extensions["timeout"])
        return httpx.Response(200, json={})

    client = Client(SECRET, BASE, timeout=12.5, transport=httpx.MockTransport(handler))
    client.request("GET", "pods")
    client.request("GET", "pods", timeout=2)
    assert seen[0]["read"] == 12.5
    assert seen[1]["read"] == 2.0


@pytest.mark.parametrize(
    ("status", "code"),
    [
        (400, "bad_request"),
        (401, "unauthorized"),
        (402, "api_error"),
        (403, "forbidden"),
        (404, "not_found"),
        (409, "conflict"),
        (422, "unprocessable"),
        (429, "rate_limited"),
        (500, "server_error"),
        (502, "server_error"),
        (503, "server_error"),
        (418, "api_error"),
    ],
)
def test_status_maps_to_error_code(status, code):
    client, _ignored, _ignored = make_client(problem(status, "went wrong"), max_attempts=1)
    with pytest.raises(RunPodError) as caught:
        client.request("POST", "pods", json={})
    assert caught.value.code == code
    assert caught.value.status == status
    # A 401 adds where the key came from (test_a_401_names_where_the_key_came_from_never_the_key).
    assert caught.value.message.partition(": RunPod refused")[0] == "went wrong"
    assert caught.value.maybe_created is False


def test_problem_json_validation_errors_are_kept_and_named_in_the_message():
    client, _ignored, _ignored = make_client(
        problem(422, "Request validation failed.", errors=["$: additional properties 'bogus' not allowed"])
    )
    with pytest.raises(RunPodError) as caught:
        client.request("POST", "pods", json={"bogus": 1})
    assert caught.value.errors == ["$: additional properties 'bogus' not allowed"]
    assert "Request validation failed." in caught.value.message
    assert "'bogus' not allowed" in caught.value.message


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ('{"message": "Pod not found"}', "Pod not found"),
        ('{"error": "endpoint not found"}', "endpoint not found"),
        ('{"error": "first", "message": "second", "detail": "third"}', "first"),
        ('{"message": "second", "detail": "third"}', "second"),
        ('{"title": "Not Found", "status": 404, "detail": "pod not found"}', "pod not found"),
        ("<html>bad gateway</html>", "<html>bad gateway</html>"),
        ("", "api request failed with status 404"),
        ("{}", "api request failed with status 404"),
    ],
)
def test_message_order_error_message_detail_raw_generic(body, expected):
    message, _ignored = message_from_body(404, body)
    assert message == expected


@given(st.text(max_size=400))
def test_message_parser_never_raises_and_never_returns_empty(body):
    message, errors = message_from_body(500, body)
    assert isinstance(message, str) and message
    assert isinstance(errors, list)


@given(st.dictionaries(st.sampled_from(["error", "message", "detail", "title", "other"]), st.text(min_size=1)))
def test_message_parser_follows_the_key_order_for_any_json_object(body):
    message, _ignored = message_from_body(400, json.dumps(body))
    for key in ("error", "message", "detail", "title"):
        if body.get(key, "").strip():
            assert message == body[key].strip()
            break
    else:
        assert message == "api request failed with status 400"


def test_get_retries_5xx_with_jittered_capped_backoff_then_succeeds():
    client, script, clock = make_client(
        problem(503, "busy"), problem(502, "busy"), httpx.Response(200, json={"ok": 1}), max_attempts=3
    )
    assert client.request("GET", "pods") == {"ok": 1}
    assert len(script.requests) == 3
    assert client.requests_made == 3
    # attempt 1 -> 0.25..0.5 s, attempt 2 -> 0.5..1 s (equal jitter on 0.5 s * 2^(n-1)).
    assert 0.25 <= clock.sleeps[0] <= 0.5
    assert 0.5 <= clock.sleeps[1] <= 1.0


def test_get_gives_up_after_max_attempts_with_the_last_error():
    client, script, clock = make_client(problem(500, "down"), max_attempts=3)
    with pytest.raises(RunPodError) as caught:
        client.request("GET", "pods")
    assert caught.value.code == "server_error"
    assert len(script.requests) == 3
    assert len(clock.sleeps) == 2


def test_backoff_is_capped():
    client, _ignored, _ignored = make_client(httpx.Response(200))
    assert all(client.backoff_delay(attempt) <= _client.BACKOFF_CAP for attempt in range(1, 30))
    assert client.backoff_delay(20) >= _client.BACKOFF_CAP / 2


def test_retry_after_is_honoured_exactly_on_429():
    client, script, clock = make_client(
        problem(429, "rate limit exceeded for the minute window", headers={"Retry-After": "12"}),
        httpx.Response(201, json={"id": "p1"}),
    )
    assert client.request("POST", "pods", json={"name": "x"}) == {"id": "p1"}
    assert clock.sleeps == [12.0]
    assert len(script.requests) == 2


def test_a_429_pauses_the_next_request_of_the_client_too():
    """The workers of a fleet share one client: a 429 one of them got holds the others for its Retry-After,
    also when that worker gives up (attempts=1) and whichever request comes next is another worker's."""
    client, _script, clock = make_client(
        problem(429, "rate limit exceeded", headers={"Retry-After": "7"}),
        httpx.Response(201, json={"id": "p2"}),
    )
    with pytest.raises(RunPodError):
        client.request("POST", "pods", json={"name": "a"}, attempts=1)
    assert clock.sleeps == []
    assert client.request("POST", "pods", json={"name": "b"}) == {"id": "p2"}
    assert clock.sleeps == [7.0]
    assert client.request("GET", "pods") == {"id": "p2"}
    assert clock.sleeps == [7.0], "the pause is over once waited out"


def test_a_hold_holds_requests_until_it_ends():
    client, _script, clock = make_client(httpx.Response(200, json={}))
    client.quota.hold(4)
    client.quota.hold(1)  # a shorter hold never shortens a longer one
    client.request("GET", "pods")
    assert clock.sleeps == [4.0]


def test_a_429_whose_retry_after_is_too_long_is_returned_to_the_caller():
    client, script, clock = make_client(problem(429, "slow down", headers={"Retry-After": "3600"}))
    with pytest.raises(RunPodError) as caught:
        client.request("GET", "pods")
    assert caught.value.code == "rate_limited"
    assert caught.value.retry_after == 3600.0
    assert clock.sleeps == []
    assert len(script.requests) == 1


@pytest.mark.parametrize("method", ["POST", "PATCH", "DELETE"])
def test_non_get_methods_never_retry_5xx(method):
    client, script, clock = make_client(problem(500, "boom"), httpx.Response(200, json={}))
    with pytest.raises(RunPodError) as caught:
        client.request(method, "pods", json={})
    assert caught.value.code == "server_error"
    assert len(script.requests) == 1
    assert clock.sleeps == []


def test_non_get_methods_never_retry_network_errors():
    client, script, _ignored = make_client(httpx.ReadTimeout("timed out"), httpx.Response(201, json={"id": "x"}))
    with pytest.raises(RunPodError) as caught:
        client.request("POST", "pods", json={})
    assert caught.value.code == "network_error"
    assert len(script.requests) == 1


def test_get_retries_network_errors():
    client, script, _ignored = make_client(httpx.ConnectError("refused"), httpx.Response(200, json={"pods": []}))
    assert client.request("GET", "pods") == {"pods": []}
    assert len(script.requests) == 2


def test_attempts_one_disables_retries_even_for_reads():
    client, script, clock = make_client(problem(503, "busy"), httpx.Response(200, json={}))
    with pytest.raises(RunPodError):
        client.request("GET", "pods", attempts=1)
    assert len(script.requests) == 1
    assert clock.sleeps == []


def test_4xx_other_than_429_is_not_retried_on_get():
    client, script, _ignored = make_client(problem(404, "pod not found"), httpx.Response(200, json={}))
    with pytest.raises(RunPodError) as caught:
        client.request("GET", "pods/x")
    assert caught.value.code == "not_found"
    assert len(script.requests) == 1


def test_non_json_success_body_is_bad_response():
    client, _ignored, _ignored = make_client(httpx.Response(200, content=b"<html>ok</html>"))
    with pytest.raises(RunPodError) as caught:
        client.request("GET", "pods")
    assert caught.value.code == "bad_response"
    assert caught.value.status == 200


@pytest.mark.parametrize(
    ("header", "expected"),
    [("12", 12.0), ("0", 0.0), ("1.5", 1.5), ("-3", 0.0), ("soon", None), ("", None), (None, None)],
)
def test_parse_retry_after(header, expected):
    assert parse_retry_after(header) == expected


def test_parse_retry_after_http_date():
    from datetime import UTC, datetime

    now = datetime(2026, 7, 29, 21, 51, 0, tzinfo=UTC)
    assert parse_retry_after("Wed, 29 Jul 2026 21:51:30 GMT", now=now) == 30.0


# -- the key never leaks -----------------------------------------------------------------------------


def _all_text(error):
    # Every attribute the error carries (what a result can show), its text, and its traceback.
    attributes = json.dumps(vars(error), default=str)
    return " ".join([str(error), repr(error), attributes, "".join(traceback.format_exception(error))])


def test_client_repr_does_not_show_the_key():
    client, _ignored, _ignored = make_client(httpx.Response(200))
    assert SECRET not in repr(client)
    assert SECRET not in str(client)


def test_transport_exception_carrying_the_headers_does_not_leak_the_key():
    def explode(request):
        raise httpx.ConnectError(f"cannot connect; headers were {dict(request.headers)}", request=request)

    client, _ignored, _ignored = make_client(explode, max_attempts=1)
    with pytest.raises(RunPodError) as caught:
        client.request("GET", "pods")
    assert caught.value.code == "network_error"
    assert SECRET not in _all_text(caught.value)
    assert "<redacted>" in caught.value.message
    # Not chained: the original exception (with the request and headers) is not in the traceback.
    assert caught.value.__context__ is None
    assert caught.value.__cause__ is None


@pytest.mark.parametrize(("env_key", "source"), [
    (SECRET, "from RUNPOD_API_KEY;"),
    (None, "from the api_key option;"),
    ("rpa_another_key_in_the_environment", "from the api_key option;"),
])
def test_a_401_names_where_the_key_came_from_never_the_key(monkeypatch, env_key, source):
    # A module's env fallback fills api_key from RUNPOD_API_KEY: the same value there is where it came from.
    monkeypatch.delenv("RUNPOD_API_KEY", raising=False)
    if env_key:
        monkeypatch.setenv("RUNPOD_API_KEY", env_key)
    client, _ignored, _ignored = make_client(problem(401, "invalid api key"), max_attempts=1)
    with pytest.raises(RunPodError) as caught:
        client.request("GET", "pods")
    assert caught.value.message.startswith(f"invalid api key: RunPod refused the API key {source}")
    assert caught.value.code == "unauthorized"
    assert SECRET not in _all_text(caught.value)
    client, _ignored, _ignored = make_client(problem(403, "forbidden"), max_attempts=1)
    with pytest.raises(RunPodError) as caught:
        client.request("GET", "pods")
    assert "refused the API key" not in caught.value.message


def test_error_bodies_echoing_the_key_are_redacted_for_every_status():
    for status in (400, 401, 403, 404, 409, 422, 429, 500):
        echo = {"message": f"bad key {SECRET}", "errors": [f"key={SECRET}"]}
        client, _ignored, _ignored = make_client(httpx.Response(status, json=echo), max_attempts=1)
        with pytest.raises(RunPodError) as caught:
            client.request("GET", "pods")
        assert SECRET not in _all_text(caught.value), status
        assert SECRET not in str(caught.value.errors)


def test_request_log_holds_no_query_strings_or_secrets():
    client, _ignored, _ignored = make_client(httpx.Response(200, json={}))
    client.request("GET", f"https://sls.example.test/v2/ep/health?api_key={SECRET}")
    assert SECRET not in repr(client.request_log)


def test_runpod_error_fields_and_defaults():
    error = RunPodError("server_error", 500, "boom", maybe_created=True)
    assert (error.code, error.status, error.message, error.maybe_created) == ("server_error", 500, "boom", True)
    assert error.errors in (None, []) and error.retry_after is None and not error.quota
    assert str(RunPodError("network_error")) == "network_error"


# --- TLS verification (docs/dev/architecture.md, "Import cost") ------------------------------------------------------


@pytest.mark.parametrize("validate_certs", [True, False])
def test_a_plain_http_client_loads_no_ca_bundle_and_its_context_fails_closed(validate_certs):
    context = _client.tls_verification(validate_certs, ("http://127.0.0.1:8080/v2", "http://127.0.0.1:8080/invoke"))
    assert isinstance(context, ssl.SSLContext)
    # Not "skip verification": it verifies, against no trust anchors, so any TLS connection would fail.
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname
    assert context.cert_store_stats()["x509_ca"] == 0


@pytest.mark.parametrize("urls", [
    (BASE,),
    ("http://127.0.0.1:8080/v2", "https://runtime.example.test/v2"),  # a local API proxy, a remote runtime
    (BASE.upper(),),
])
@pytest.mark.parametrize("validate_certs", [True, False])
def test_any_https_url_keeps_the_users_validate_certs(urls, validate_certs):
    assert _client.tls_verification(validate_certs, urls) is validate_certs


def test_the_backend_client_counts_the_serverless_url_among_its_hosts(monkeypatch):

    seen = []
    real = _client.tls_verification
    monkeypatch.setattr(_client, "tls_verification", lambda validate, urls: seen.append(urls) or real(validate, urls))
    full_backend({"api_key": SECRET, "api_url": "http://127.0.0.1:9/v2",
                  "serverless_url": "https://runtime.example.test/v2"})
    assert seen == [("http://127.0.0.1:9/v2", "https://runtime.example.test/v2")]

# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""HTTP client for the RunPod APIs: auth, timeouts, bounded retries, errors mapped to ``RunPodError`` (codes:
docs/dev/api-notes.md, section 2). The API key lives only in the Authorization header: errors carry it redacted and
never chain the transport exception."""

from __future__ import annotations

import contextlib
import json as jsonlib
import math
import os
import random
import ssl
import sys
import threading
import time
import traceback

from ansible_collections.runpod.cloud.plugins.module_utils._api.quota import QuotaKeeper, parse_retry_after
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.api_error import RunPodError


def _import_httpx():
    """``import httpx`` without ``httpx._main`` (click, rich, pygments: most of its import time), which only its
    command line needs: blocked for this one import (httpx falls back to a stub ``main``)."""
    blocked = "httpx._main" not in sys.modules and "httpx" not in sys.modules
    if blocked:
        sys.modules["httpx._main"] = None  # type: ignore[assignment]
    try:
        import httpx as module
    finally:
        if blocked and sys.modules.get("httpx._main", False) is None:
            del sys.modules["httpx._main"]
    return module


try:
    httpx = _import_httpx()
except ImportError:  # pragma: no cover - exercised by the sanity import test
    HAS_HTTPX = False
    HTTPX_IMPORT_ERROR: str | None = traceback.format_exc()
    httpx = None  # type: ignore[assignment]
else:
    HAS_HTTPX = True
    HTTPX_IMPORT_ERROR = None

# Named in the User-Agent of every API request; keep in step with galaxy.yml.
COLLECTION_VERSION = "0.3.0"
DEFAULT_USER_AGENT = f"runpod.cloud/{COLLECTION_VERSION} (+ansible)"
READ_METHODS = frozenset(("GET", "HEAD"))
BACKOFF_BASE = 0.5
BACKOFF_CAP = 8.0
# How long one call may wait for the quota when the task set no budget: the create budget's default.
DEFAULT_QUOTA_BUDGET = 600.0
# A call that keeps answering 429 although each Retry-After was waited out gives up after this many.
MAX_RATE_LIMITED_ATTEMPTS = 30

REDACTED = "<redacted>"
# HTTP status -> error code (docs/dev/api-notes.md, section 2; 422 is REST v2's schema violation).
STATUS_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found", 409: "conflict",
                422: "unprocessable", 429: "rate_limited"}
RAW_BODY_LIMIT = 300


def code_for_status(status):
    return STATUS_CODES.get(status) or ("server_error" if status >= 500 else "api_error")


def _text(value):
    if value is None:
        return ""
    return value.strip() if isinstance(value, str) else jsonlib.dumps(value, sort_keys=True)


def message_from_body(status, body_text):
    """``(message, errors)`` of an error body; ``errors`` is the problem+json ``errors`` list."""
    errors = []
    try:
        parsed = jsonlib.loads(body_text) if body_text else None
    except ValueError:
        parsed = None
    if isinstance(parsed, dict):
        raw_errors = parsed.get("errors")
        if isinstance(raw_errors, list):
            errors = [_text(item.get("message") if isinstance(item, dict) else item) for item in raw_errors]
            errors = [item for item in errors if item]
        for key in ("error", "message", "detail", "title"):
            text = _text(parsed.get(key))
            if text:
                if errors and key in ("detail", "title"):
                    text = f"{text}: {'; '.join(errors)}"
                return text, errors
        if errors:
            return "; ".join(errors), errors
    if body_text and body_text.strip() and not isinstance(parsed, (dict, list)):
        return body_text.strip()[:RAW_BODY_LIMIT], errors
    return f"api request failed with status {status}", errors


def post_create(client, path, body, **options):
    """POST a create once (``options``: ``params``, ``timeout``). A 5xx or a lost connection marks the error
    ``maybe_created``: the resource may exist and bill, so the caller looks it up by name instead of resending."""
    try:
        return client.request("POST", path, json=body, **options)
    except RunPodError as error:
        if error.code in ("server_error", "network_error"):
            error.maybe_created = True
        raise


class _SystemClock:
    def now(self):
        return time.monotonic()

    def sleep(self, seconds):
        if seconds > 0:
            time.sleep(seconds)


def tls_verification(validate_certs, urls):
    """httpx's ``verify`` for ``urls``: with plain HTTP alone the CA bundle (about 40 ms) is not loaded; the context
    trusts no certificate, so a TLS connection would fail, never go unverified."""
    if any(str(url).lower().startswith("https:") for url in urls):
        return validate_certs
    return ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)


class Client:
    """One RunPod API base URL plus absolute URLs on other RunPod hosts (the serverless runtime)."""

    def __init__(self, api_key, base_url, *, timeout=30.0, validate_certs=True, user_agent=DEFAULT_USER_AGENT,
                 transport=None, clock=None, max_attempts=3, rng=None, other_urls=()):
        if not HAS_HTTPX:
            raise RuntimeError("the httpx Python library is required")
        self._secret = api_key or ""
        self.base_url = base_url.rstrip("/")
        self.timeout = float(timeout)
        self.max_attempts = max(1, int(max_attempts))
        self.clock = clock or _SystemClock()
        self._rng = rng or random.Random()
        self.requests_made = 0
        self._count_lock = threading.Lock()
        # Shared by every thread of this client (a fleet's workers, a batch wait).
        self.quota = QuotaKeeper(self.clock)
        self._budget_deadline = None
        self._budget_label = ""
        self.rate_limited_answers = 0
        # (method, path, status or error code) per attempt; never query strings or headers.
        self.request_log = []
        headers = {"User-Agent": user_agent or DEFAULT_USER_AGENT, "Accept": "application/json"}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        self._http = httpx.Client(base_url=self.base_url + "/", headers=headers, timeout=self.timeout,
                                  verify=tls_verification(validate_certs, (self.base_url, *other_urls)),
                                  transport=transport, follow_redirects=False)

    def __repr__(self):
        return f"Client(base_url={self.base_url!r}, timeout={self.timeout!r})"

    def close(self):
        self._http.close()

    def redact(self, text):
        text = str(text)
        return text.replace(self._secret, REDACTED) if len(self._secret) >= 4 else text

    def backoff_delay(self, attempt, retry_after=None):
        """Seconds to wait before attempt ``attempt + 1``: Retry-After if given, else jittered 0.5 s * 2^(n-1)."""
        if retry_after is not None:
            return float(retry_after)
        ceiling = min(BACKOFF_CAP, BACKOFF_BASE * (2 ** (attempt - 1)))
        # Equal jitter: never less than half the step, so retries still spread out.
        return ceiling / 2 + self._rng.random() * ceiling / 2

    def set_budget(self, seconds, label):
        """Calls wait for the quota (pacing, 429s) until ``seconds`` from now at most (None: each call gets
        ``DEFAULT_QUOTA_BUDGET``); ``label`` names the budget in the failure (``create_timeout 10m``)."""
        self._budget_deadline = None if seconds is None else self.clock.now() + float(seconds)
        self._budget_label = label or ""

    def _deadline(self, call_started):
        return call_started + DEFAULT_QUOTA_BUDGET if self._budget_deadline is None else self._budget_deadline

    def quota_error(self, block, status=None):
        """``rate_limited``: the quota (``_quota.Block``) resets only after the task's budget ends."""
        budget = self._budget_label or f"{DEFAULT_QUOTA_BUDGET:g} s a call may wait"
        message, details = block.failure(self.clock.now(), budget)
        return RunPodError("rate_limited", status, message, retry_after=details["resets_in"], quota=details, fatal=True)

    def _admit(self, url, deadline):
        """Wait for the quota and count the request: the keeper its answer settles (None off the API host, which has
        its own limits); ``rate_limited`` when the quota resets after ``deadline``."""
        keeper = self.quota if "://" not in str(url) or str(url).startswith(self.base_url + "/") else None
        block = keeper.acquire(deadline) if keeper is not None else None
        if block is not None:
            raise self.quota_error(block)
        with self._count_lock:
            self.requests_made += 1
        return keeper

    def _send(self, method, url, json=None, params=None, timeout=None, deadline=math.inf):
        """One attempt: the httpx response, or a ``RunPodError`` for a transport failure."""
        keeper = self._admit(url, deadline)
        failure = response = None
        try:
            response = self._http.request(method, url, json=json, params=params,
                                          timeout=self.timeout if timeout is None else float(timeout))
        except httpx.TimeoutException as exc:
            failure = f"request timed out ({type(exc).__name__}): {exc}"
        except httpx.HTTPError as exc:
            failure = f"network error ({type(exc).__name__}): {exc}"
        finally:
            if keeper is not None:
                keeper.settle(response.headers if response is not None else None)
        if failure is not None or response is None:
            # Built after the except block: the transport exception (it may carry the headers) is not chained.
            self._log(method, url, "network_error")
            return RunPodError("network_error", None, self.redact(failure or "no answer"))
        self._log(method, url, response.status_code)
        return response

    def _log(self, method, url, outcome):
        self.request_log.append((method, self.redact(str(url).split("?", 1)[0]), outcome))

    def _error_from_response(self, response):
        status = response.status_code
        try:
            body_text = response.text
        except Exception:  # undecodable body: fall back to the generic message
            body_text = ""
        message, errors = message_from_body(status, body_text)
        if status == 401:  # where the key came from, never the key (a module's env fallback fills api_key from it)
            source = "RUNPOD_API_KEY" if os.environ.get("RUNPOD_API_KEY") == self._secret else "the api_key option"
            message = f"{message}: RunPod refused the API key from {source}; check or replace it there"
        return RunPodError(code_for_status(status), status, self.redact(message), errors=list(map(self.redact, errors)),
                           retry_after=parse_retry_after(response.headers.get("Retry-After")))

    def _decode(self, response):
        if response.status_code == 204 or not response.content:
            return None
        try:
            return response.json()
        except ValueError:
            snippet = self.redact(response.text[:80])
        return RunPodError("bad_response", response.status_code,
                           f"the API answered {response.status_code} with a body that is not JSON: {snippet!r}")

    @contextlib.contextmanager
    def stream(self, url, *, params=None, headers=None, timeout=None, deadline=None):
        """A GET whose body the caller reads as it comes: one attempt, paced by the quota (until the task's budget
        or ``deadline``, this clock's time, else ``rate_limited``), counted and logged like every request."""
        limit = self._deadline(self.clock.now())
        keeper = self._admit(url, limit if deadline is None else min(limit, deadline))
        self._log("GET", url, "stream")
        settled = keeper is None
        try:
            with self._http.stream("GET", url, params=params, headers=headers,
                                   timeout=self.timeout if timeout is None else timeout) as response:
                if keeper is not None:
                    # A stream that says nothing of the quota never makes the keeper believe the caller is exempt.
                    keeper.settle(response.headers if response.headers.get("RateLimit") else None)
                settled = True
                yield response
        finally:
            if keeper is not None and not settled:
                keeper.settle(None)

    def request(self, method, url, *, json=None, params=None, attempts=None, timeout=None):
        """The decoded JSON body (None when empty) of ``url`` (under ``base_url`` or absolute), or ``RunPodError``.
        GETs retry 429/5xx/network errors, other methods only 429; ``attempts=1`` retries none."""
        method = method.upper()
        limit = self.max_attempts if attempts is None else max(1, int(attempts))
        limit_429 = MAX_RATE_LIMITED_ATTEMPTS if attempts is None else limit
        deadline = self._deadline(self.clock.now())
        attempt = rate_limited_attempts = 0
        while True:
            attempt += 1
            outcome = self._send(method, url, json=json, params=params, timeout=timeout, deadline=deadline)
            if isinstance(outcome, RunPodError):
                error = outcome
            elif outcome.is_success:
                decoded = self._decode(outcome)
                if isinstance(decoded, RunPodError):
                    raise decoded
                return decoded
            else:
                error = self._error_from_response(outcome)
            if error.code == "rate_limited" and not error.fatal:
                error, rate_limited_attempts = self._wait_out_429(error, deadline), rate_limited_attempts + 1
                # A 429 never created anything, so even a create is sent again once the quota allows; the
                # caller's attempts=N (a poll read: attempts=1) still ends the call, the hold stays for the next.
                if rate_limited_attempts < limit_429 and not error.fatal:
                    continue
                raise error
            # Only reads are safe to repeat after a 5xx or a lost connection; a create may have happened.
            if attempt >= limit or method not in READ_METHODS or error.code not in ("server_error", "network_error"):
                raise error
            self.clock.sleep(self.backoff_delay(attempt, error.retry_after))

    def _wait_out_429(self, error, deadline):
        """A 429 holds every request of this client for its Retry-After: ``error``, or the fatal ``quota_error`` when
        the hold ends after ``deadline``."""
        with self._count_lock:
            self.rate_limited_answers += 1
        hold = self.quota.hold(self.backoff_delay(self.rate_limited_answers, error.retry_after),
                               self.quota.spent_window())
        if hold.resume_at <= deadline:
            return error
        fatal = self.quota_error(hold, status=error.status)
        fatal.message = f"{fatal.message}; the last answer: {error.message}"
        return fatal

# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The HTTP server: one starlette app, one dispatcher doing auth, faults, rate limit and the request log.

Every request goes through :meth:`Sim.dispatch`, which is why each surface formats errors its own way
(``surface`` = v2 problem+json, invoke/admin ``{"error"}``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from . import DEFAULT_API_KEY, contract, runtime_contract
from .faults import FaultBook, FaultRule, RequestLog
from .listeners import ListenerManager
from .quota import RateLimiter, windows_from_config
from .store import Pod, SimConfig, Store

log = logging.getLogger("runpod_sim")

try:  # optional: about 10x faster for the 1,000-pod listing; the stdlib encoder is the fallback
    import orjson

    def dump_json(value: Any) -> bytes:
        return orjson.dumps(value)

except ImportError:  # pragma: no cover - depends on the environment

    def dump_json(value: Any) -> bytes:
        return json.dumps(value, separators=(",", ":")).encode()


PROBLEM_JSON = "application/problem+json"
# The background ticker (Sim._tick_forever): at least TICK_MIN between two ticks, at most TICK_IDLE (seconds).
TICK_MIN = 0.02
TICK_IDLE = 0.1
NO_CAPACITY = "There are no longer any instances available with the requested specifications"


class ApiError(Exception):
    """Raised by handlers; rendered in the surface's error format."""

    def __init__(
        self, status: int, detail: str, errors: list[str] | None = None, headers: dict[str, str] | None = None
    ):
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.errors = errors
        self.headers = headers or {}


@dataclass
class Reply:
    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    media_type: str = "application/json"
    raw: bytes | None = None  # pre-rendered bytes (malformed bodies)
    stream: AsyncIterator[bytes] | None = None  # a streamed body (logs.py: Server-Sent Events)


@dataclass
class Ctx:
    request: Request
    params: dict[str, str]
    surface: str
    _body: Any = None
    _read: bool = False

    @property
    def query(self) -> Any:
        return self.request.query_params

    async def json(self, *, default: Any = None) -> Any:
        if not self._read:
            raw = await self.request.body()
            self._read = True
            if not raw.strip():
                self._body = default
            else:
                try:
                    self._body = json.loads(raw)
                except ValueError:
                    raise ApiError(400, "request body is not valid JSON") from None
        return self._body


Handler = Callable[["Sim", Ctx], Awaitable[Reply]]


@dataclass
class _Route:
    method: str
    pattern: re.Pattern[str]
    surface: str
    handler: Handler
    auth: bool = True
    max_body: int | None = None  # a larger request body answers 413 before authentication


def error_reply(surface: str, status: int, detail: str, errors: list[str] | None = None) -> Reply:
    if surface == "v2":
        body: dict[str, Any] = {"title": _phrase(status), "status": status, "detail": detail}
        if errors:
            body["errors"] = errors
        return Reply(status, body, media_type=PROBLEM_JSON)
    return Reply(status, {"error": detail})


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"


def _surface_for(path: str) -> str:
    for prefix, surface in (("/v2/", "v2"), ("/invoke/", "invoke")):
        if path.startswith(prefix) or path == prefix.rstrip("/"):
            return surface
    return "admin" if path.startswith("/_sim") else "other"


def _list_slot(body: Any) -> tuple[dict[str, Any], str] | None:
    """Where a list response keeps its items: (container, key) for null-entry and empty-list faults."""
    if isinstance(body, dict):
        for key in ("pods", "endpoints", "templates", "workers", "secrets", "builds"):
            if isinstance(body.get(key), list):
                return body, key
    return None


class Sim:
    """Everything the server holds. ``base_url`` is filled in once the socket is bound."""

    def __init__(
        self, config: SimConfig | None = None, *, api_key: str = DEFAULT_API_KEY, state_dir: str | None = None
    ):
        self.api_key = api_key
        self.listeners = ListenerManager(state_dir)
        self.store = Store(config or SimConfig(), self.listeners)
        self.faults = FaultBook()
        self.limiter = RateLimiter()
        self.requests = RequestLog()
        # Responses that broke the OpenAPI document (see contract.py); tests fail on any entry.
        self.contract_violations: list[str] = []
        self.base_url = "http://127.0.0.1"
        self.started_at = time.time()
        self._routes: list[_Route] = []
        self._ticker: asyncio.Task[None] | None = None
        self._wake: asyncio.Event | None = None
        self.logbook: Any = None  # logs.LogBook, set by logs.register
        self.listeners.api_url = lambda: f"{self.base_url}/v2"
        from . import (
            admin,
            api_account,
            api_builds,
            api_runtime,
            api_secrets,
            api_v2,
            api_v2_catalog,
            api_v2_clusters,
            logs,
        )

        for module in (
            api_v2,
            api_v2_catalog,
            api_v2_clusters,
            admin,
            api_account,
            logs,
            api_runtime,
            api_secrets,
            api_builds,
        ):
            module.register(self)

    # -- urls ------------------------------------------------------------------------------------------------
    def urls(self) -> dict[str, str]:
        base = self.base_url
        return {
            "base": base,
            "api_v2": f"{base}/v2",
            "serverless": f"{base}/invoke/v2",
            "admin": f"{base}/_sim",
        }

    # -- routing ---------------------------------------------------------------------------------------------
    def route(
        self, method: str, path: str, handler: Handler, *, auth: bool = True, max_body: int | None = None
    ) -> None:
        regex = "^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", path) + "$"
        self._routes.append(_Route(method, re.compile(regex), _surface_for(path), handler, auth, max_body))

    def _match(self, method: str, path: str) -> tuple[_Route | None, dict[str, str], bool]:
        path_known = False
        for route in self._routes:
            match = route.pattern.match(path)
            if match:
                path_known = True
                if route.method == method:
                    return route, match.groupdict(), True
        return None, {}, path_known

    # -- auth ------------------------------------------------------------------------------------------------
    @staticmethod
    def _token(request: Request, surface: str) -> str:
        header = request.headers.get("authorization", "")
        token = header[7:].strip() if header[:7].lower() == "bearer " else ""
        if surface == "invoke" and not token:
            token = header.strip()  # the serverless docs send the raw key
        return token

    def _authorized(self, request: Request, surface: str) -> tuple[bool, str]:
        token = self._token(request, surface)
        if not token:
            return False, "missing bearer token"
        if token != self.api_key and self._key_pod(token) is None:
            return False, "invalid api key"
        return True, ""

    def _key_pod(self, token: str) -> Pod | None:
        """The pod whose pod-scoped RUNPOD_API_KEY ``token`` is, if any."""
        if not token.startswith("rpa_pod_"):
            return None
        return next((pod for pod in self.store.pods.values() if pod.api_key == token), None)

    def _out_of_scope(self, request: Request, surface: str, params: dict[str, str]) -> str | None:
        """A pod's own key is "limited in scope to only the pod" (RunPod's pod environment variables page): the
        paths of that pod and nothing else, not even the pod list (403, which listPods documents)."""
        pod = self._key_pod(self._token(request, surface))
        if pod is None or (request.url.path.startswith("/v2/pods/") and params.get("pod_id") == pod.id):
            return None
        return f"this API key is scoped to pod {pod.id} and cannot access {request.url.path}"

    # -- the dispatcher --------------------------------------------------------------------------------------
    async def asgi_entry(self, request: Request) -> Response:
        started = time.time()
        method = request.method.upper()
        path = request.url.path
        surface = _surface_for(path)
        fault_kinds: list[str] = []
        try:
            reply = await self._dispatch(request, method, path, surface, fault_kinds)
        except Exception:
            log.exception("unhandled error serving %s %s", method, path)
            reply = error_reply(surface, 500, "internal server error")
        response = self._render(reply)
        if self._wake is not None:
            self._wake.set()  # the request may have set a deadline the ticker must wake for
        if surface != "admin":
            entry = {
                "method": method,
                "path": path,
                "query": str(request.url.query),
                "status": reply.status,
                "surface": surface,
                "started_at": started,
                "finished_at": time.time(),
                "duration_ms": round((time.time() - started) * 1000, 3),
                "faults": fault_kinds,
            }
            self.requests.add(entry)
            if surface in ("v2", "invoke") and not fault_kinds and self.store.config.validate_responses:
                self._check_contract(method, path, reply, entry)
        return response

    def _check_contract(self, method: str, path: str, reply: Reply, entry: dict[str, Any]) -> None:
        body = reply.body if reply.status != 204 else None
        if reply.stream is not None:
            body = ""  # a stream: status and media type here, each event as it is sent (logs.py)
        try:
            if path.startswith("/invoke/"):  # the runtime API: runpod-api.md section 2 (runtime_contract.py)
                problems = runtime_contract.check(method, path, reply.status, body)
            else:
                problems = contract.check(method, path, reply.status, reply.media_type, body)
        except Exception as exc:  # a checker bug must not take the route down
            log.exception("contract check failed for %s %s", method, path)
            problems = [f"{method} {path}: contract check crashed: {exc!r}"]
        if problems:
            entry["contract"] = problems
            self.contract_violations.extend(problems)
            del self.contract_violations[:-1000]
            for problem in problems:
                log.error("contract violation: %s", problem)

    async def _dispatch(self, request: Request, method: str, path: str, surface: str, fault_kinds: list[str]) -> Reply:
        self.store.advance()
        await self.listeners.reconcile()
        route, params, path_known = self._match(method, path)
        if route is None:
            if path_known:
                return error_reply(surface, 405, f"method {method} not allowed on {path}")
            return error_reply(surface, 404, "resource not found")

        rules: list[FaultRule] = self.faults.take(method, path) if surface != "admin" else []
        fault_kinds.extend(rule.kind for rule in rules)
        for rule in rules:
            if rule.kind == "delay":
                await asyncio.sleep(float(rule.params["seconds"]))
            elif rule.kind == "hold":
                await rule.hold()
        for rule in rules:
            if rule.kind == "status":
                return self._status_fault(surface, rule)
            if rule.kind == "stock_out":
                if surface == "v2":
                    return error_reply("v2", 400, NO_CAPACITY)
                return error_reply(surface, 500, NO_CAPACITY)

        extra_headers: dict[str, str] = {}
        if route.max_body is not None and len(await request.body()) > route.max_body:
            return error_reply(surface, 413, f"request body exceeds the {route.max_body} byte limit")
        if route.auth:
            ok, why = self._authorized(request, surface)
            if not ok:
                return error_reply(surface, 401, why)
            denied = self._out_of_scope(request, surface, params)
            if denied:
                return error_reply(surface, 403, denied)
        if route.auth and surface == "v2":  # the windows RunPod documents for REST v2, per API key (quota.py)
            config = self.store.config
            key = request.headers.get("authorization", "")
            exceeded, extra_headers = self.limiter.hit(key, windows_from_config(config), config.time_scale)
            if exceeded:
                reply = error_reply(surface, 429, f"rate limit exceeded for the {exceeded} window")
                reply.headers.update(extra_headers)
                return reply

        ctx = Ctx(request, params, surface)
        try:
            reply = await route.handler(self, ctx)
        except ApiError as exc:
            reply = error_reply(surface, exc.status, exc.detail, exc.errors)
            reply.headers.update(exc.headers)
        self.store.advance()
        await self.listeners.reconcile()
        if extra_headers and self.store.config.rate_limit_counted_at == "answer":
            # Counted as the answer leaves: r also counts what arrived while this request was handled.
            config = self.store.config
            key = request.headers.get("authorization", "")
            extra_headers.update(self.limiter.peek(key, windows_from_config(config), config.time_scale))
        reply.headers.update(extra_headers)
        for rule in rules:
            reply = self._post_fault(surface, rule, reply)
        return reply

    def _status_fault(self, surface: str, rule: FaultRule) -> Reply:
        status = int(rule.params["status"])
        if "body" in rule.params:
            reply = Reply(status, rule.params["body"])
        else:
            reply = error_reply(surface, status, str(rule.params.get("detail") or _phrase(status).lower()))
        if status == 429 or "retry_after" in rule.params:
            retry_after = rule.params.get("retry_after", 1)
            reply.headers["Retry-After"] = str(int(retry_after) if float(retry_after).is_integer() else retry_after)
            if status == 429:
                reply.headers["RateLimit-Policy"] = '"minute";q=60;w=60'
                reply.headers["RateLimit"] = f'"minute";r=0;t={max(1, int(float(retry_after) + 0.999))}'
        return reply

    def _post_fault(self, surface: str, rule: FaultRule, reply: Reply) -> Reply:
        if rule.kind == "malformed" and reply.stream is not None:
            # An event whose data is cut short, then the stream held open as a live one would be.
            return Reply(reply.status, raw=b'id: 1\ndata: {"ts":"2026-06-01T12:02:03Z","sou\n\n',
                         headers=reply.headers, media_type=reply.media_type)
        if rule.kind == "malformed":
            rendered = dump_json(reply.body) if reply.body is not None else b"{}"
            return Reply(
                200 if reply.status == 204 else reply.status,
                raw=rendered[: max(1, len(rendered) // 2)] + b'{"',
                headers=reply.headers,
                media_type=reply.media_type,
            )
        if rule.kind == "error_after_create":
            if 200 <= reply.status < 300:
                status = int(rule.params.get("status", 500))
                return error_reply(surface, status, "internal server error")
            return reply
        slot = _list_slot(reply.body)
        if slot is None:
            return reply
        container, key = slot
        items = container[key]
        if rule.kind == "null_entry":
            items.insert(len(items) // 2, None)
        elif rule.kind == "empty_list":
            items.clear()
        return reply

    @staticmethod
    def _render(reply: Reply) -> Response:
        if reply.stream is not None:
            return StreamingResponse(reply.stream, status_code=reply.status, headers=reply.headers,
                                     media_type=reply.media_type)
        if reply.raw is not None:
            return Response(reply.raw, status_code=reply.status, headers=reply.headers, media_type=reply.media_type)
        if reply.status == 204 or reply.body is None:
            return Response(b"", status_code=reply.status, headers=reply.headers)
        content = dump_json(reply.body)
        return Response(content, status_code=reply.status, headers=reply.headers, media_type=reply.media_type)

    # -- background ------------------------------------------------------------------------------------------
    async def _tick_forever(self) -> None:
        # Lifecycle steps and listener changes happen on time even when no request arrives (a port opens for a
        # client that only connects). The ticker sleeps until the store's next deadline, or until a request may
        # have set a new one, and no longer than TICK_IDLE for what keeps no deadline there (job starts, worker
        # scaling): a sim that polled every 20 ms cost about 1% of a core while idle, per simulator.
        wake = self._wake = asyncio.Event()
        while True:
            try:
                self.store.advance()
                await self.listeners.reconcile()
                due = self.store.next_due()
            except Exception:
                log.exception("ticker error")
                due = None
            delay = TICK_IDLE if due is None else min(TICK_IDLE, max(TICK_MIN, due - self.store.now()))
            wake.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(wake.wait(), delay)

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette):
        self._ticker = asyncio.create_task(self._tick_forever())
        try:
            yield
        finally:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
            await self.listeners.close()

    def asgi_app(self) -> Starlette:
        methods = ["GET", "POST", "PATCH", "PUT", "DELETE", "HEAD", "OPTIONS"]
        return Starlette(routes=[Route("/{path:path}", self.asgi_entry, methods=methods)], lifespan=self.lifespan)

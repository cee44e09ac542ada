# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""One bounded read of a live RunPod log stream, which never raises: see docs/dev/logs.md, "The reader's rules"."""

from __future__ import annotations

import codecs

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import (
    HAS_HTTPX,
    RunPodError,
    code_for_status,
    httpx,
    message_from_body,
)
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.log_lines import (
    MalformedLogError,
    SSEParser,
    Tails,
    logs_block,
    read_event,
)

EVENT_STREAM = "text/event-stream"
# A backfill is over once no event came for this long.
QUIET = 1.0
# A stream that sends more than this (a container printing without pause) is cut: the tail is what counts.
MAX_STREAM_BYTES = 1 << 20
ERROR_BODY_BYTES = 4096


def _error_text(client, response):
    body = b""
    for chunk in response.iter_bytes():
        body += chunk
        if len(body) >= ERROR_BODY_BYTES:
            break
    message, _errors = message_from_body(response.status_code, body[:ERROR_BODY_BYTES].decode("utf-8", "replace"))
    return client.redact(f"{message} ({code_for_status(response.status_code)})")


def read_log_stream(client, path, *, tail, deadline, clock, mask, source=None, quiet=QUIET, headers=None, stop=None):
    """The newest ``tail`` lines of each source (``source`` None = both) as a logs block, read until the backfill is
    over, ``deadline`` (``clock.now()`` time) passes or ``stop`` (``{ts, line} -> bool``) answers true."""
    remaining = deadline - clock.now()
    if remaining <= 0:
        return logs_block(unavailable="the log read budget was spent before this read")
    if not HAS_HTTPX:  # pragma: no cover - the modules fail earlier without httpx
        return logs_block(unavailable="the httpx library is missing")
    params = {"tail": max(0, min(int(tail), 5000)), **({"source": source} if source is not None else {})}
    wanted = {"Accept": EVENT_STREAM, "Cache-Control": "no-cache", **(headers or {})}
    tails = Tails(tail, mask)
    parser = SSEParser()
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    answered = False
    try:
        # The answer may take the whole budget (a slow API is not a quiet stream); the quiet rule starts with it.
        timeout = httpx.Timeout(remaining, connect=min(remaining, 5.0))
        # The quota is waited for within this read's budget too, never the task's (on the client's own clock).
        with client.stream(path, params=params, headers=wanted, timeout=timeout,
                           deadline=client.clock.now() + remaining) as response:
            answered = True
            if response.status_code != 200:
                return logs_block(unavailable=_error_text(client, response))
            media = response.headers.get("content-type", "").split(";")[0].strip().lower()
            if media != EVENT_STREAM:
                return logs_block(unavailable=f"the API answered with {media or 'no content type'}, not {EVENT_STREAM}")
            _quiet_reads(response, min(max(0.0, deadline - clock.now()), quiet))
            _read_events(response, parser, decoder, tails, deadline, clock, quiet, source, stop)
    except httpx.TimeoutException as exc:
        if not answered:
            return logs_block(unavailable=client.redact(f"no answer in time ({type(exc).__name__})"))
        # The stream went quiet for longer than the read timeout: the backfill is over.
    except httpx.HTTPError as exc:
        return logs_block(unavailable=client.redact(f"network error ({type(exc).__name__}): {exc}"))
    except RunPodError as exc:  # the quota would reset only after this read's budget
        return logs_block(unavailable=client.redact(f"{exc.message} ({exc.code})"))
    except MalformedLogError as exc:
        return logs_block(unavailable=f"malformed log event: {exc}")
    return logs_block(tails.lines("container"), tails.lines("system"))


def _quiet_reads(response, seconds):
    """From now on each read of the body waits at most ``seconds``, so a silent stream ends on a read timeout."""
    try:
        timeouts = response.request.extensions.get("timeout")
    except (AttributeError, RuntimeError):  # a response without its request
        return
    if isinstance(timeouts, dict):
        timeouts["read"] = seconds


def _read_events(response, parser, decoder, tails, deadline, clock, quiet, source, stop=None):
    last_event, received = clock.now(), 0
    for chunk in response.iter_bytes():
        received += len(chunk)
        events = parser.feed(decoder.decode(chunk))
        for _event_id, _name, data in events:
            event = read_event(data)
            if source is None or event["source"] == source:  # a server that ignored ``source`` sends both
                entry = tails.add(event)
                if stop is not None and stop(entry):
                    return
        now = clock.now()
        last_event = now if events else last_event
        # At the byte bound the tail of what came is kept: a container this chatty has more to say than fits.
        if received >= MAX_STREAM_BYTES or now >= deadline or now - last_event >= quiet:
            return

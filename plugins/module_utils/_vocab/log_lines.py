# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""RunPod's log lines as data (pure Python): the Server-Sent Events parser, the log event reader, secret masking,
the per-source tails and the text a failure quotes. Lines are shown, never parsed into a status; the rules:
docs/dev/logs.md, "The reader's rules"."""

from __future__ import annotations

import json
import re
from collections import deque

SOURCES = ("container", "system")
MASK = "********"
# A value shorter than this is not masked: masking "1" or "yes" would blank every line that holds it.
MIN_SECRET_LENGTH = 4
MAX_LINE_CHARS = 1000  # of a line (after masking); the rest is cut with an ellipsis
FAILURE_LINES = 20  # per source, in a failed wait's result
QUOTE_CHARS = 200  # of a line a failure message quotes

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


class MalformedLogError(ValueError):
    """An event the document does not allow: the read it came from is reported as unavailable."""


class SSEParser:
    """An incremental Server-Sent Events parser, by the WHATWG event-stream rules (docs/dev/logs.md, "The reader's
    rules" 5): ``feed(text)`` returns the events ``text`` completed as ``(id, event, data)`` tuples."""

    def __init__(self):
        self._buffer, self._data, self._event, self.last_id = "", [], "", None

    def feed(self, text):
        self._buffer += text
        events = []
        while True:
            match = _LINE_BREAK.search(self._buffer)
            if match is None:
                break
            if match.group() == "\r" and match.end() == len(self._buffer):
                break  # a CR at the end may be the first half of CRLF: wait for the next chunk
            line, self._buffer = self._buffer[: match.start()], self._buffer[match.end():]
            event = self._line(line)
            if event is not None:
                events.append(event)
        return events

    def _line(self, line):
        if line == "":
            return self._dispatch()
        if line.startswith(":"):
            return None
        name, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if name == "data":
            self._data.append(value)
        elif name == "id" and "\x00" not in value:
            self.last_id = value
        elif name == "event":
            self._event = value
        return None

    def _dispatch(self):
        data, event = self._data, self._event
        self._data, self._event = [], ""
        return (self.last_id, event or "message", "\n".join(data)) if data else None


def read_event(data):
    """``{"ts", "source", "line"}`` of one event's ``data`` (the document's log payload), or ``MalformedLogError``."""
    try:
        payload = json.loads(data)
    except ValueError:
        raise MalformedLogError(f"an event's data is not JSON: {data[:60]!r}") from None
    if not isinstance(payload, dict):
        raise MalformedLogError("an event's data is not a JSON object")
    for key in ("ts", "source", "line"):
        if not isinstance(payload.get(key), str):
            raise MalformedLogError(f"an event has no text {key!r}")
    if payload["source"] not in SOURCES:
        raise MalformedLogError(f"an event names an unknown source {payload['source'][:30]!r}")
    return {"ts": payload["ts"], "source": payload["source"], "line": payload["line"]}


class Masker:
    """Replaces every secret the task knows with ``MASK``: the longest first (a secret that holds another is
    masked whole), and each line of a multi-line secret on its own (a key file printed line by line)."""

    def __init__(self, secrets=()):
        parts = {part.strip("\r\n") for secret in secrets if isinstance(secret, str)
                 for part in [secret, *secret.splitlines()]}
        self.secrets = sorted((part for part in parts if len(part) >= MIN_SECRET_LENGTH), key=len, reverse=True)

    def __call__(self, text):
        for secret in self.secrets:
            text = text.replace(secret, MASK)
        return text


def clean_line(line, mask):
    """A line as the collection keeps it: masked first (so a cut never leaves half a secret), control characters
    (terminal escapes, NUL) shown as ``\\xNN``, trailing line breaks dropped, at most ``MAX_LINE_CHARS``."""
    text = mask(line.rstrip("\r\n"))
    text = _CONTROL.sub(lambda found: f"\\x{ord(found.group()):02x}", text)
    if len(text) > MAX_LINE_CHARS:
        text = text[: MAX_LINE_CHARS - 1] + "\u2026"
    return text


class Tails:
    """The newest ``size`` lines of each source, in arrival order (the stream's order: newest last)."""

    def __init__(self, size, mask):
        self._lines: dict[str, deque[dict]] = {source: deque(maxlen=max(0, int(size))) for source in SOURCES}
        self._mask = mask
        self.count = 0

    def add(self, event):
        """Keep ``event``; returns its ``{ts, line}`` entry (masked and cleaned)."""
        entry = {"ts": event["ts"], "line": clean_line(event["line"], self._mask)}
        self._lines[event["source"]].append(entry)
        self.count += 1
        return entry

    def lines(self, source):
        return list(self._lines[source])


def logs_block(container=None, system=None, unavailable=None):
    """The one shape of a resource's logs in a result: ``container`` and ``system`` lines (each ``{ts, line}``,
    newest last) and ``unavailable``, why they could not be read (null when they were)."""
    return {"container": list(container or []), "system": list(system or []), "unavailable": unavailable}


def merge_blocks(blocks):
    """One block from the reads of each source: the lines of each, and every reason a read failed."""
    merged = logs_block()
    reasons = []
    for block in blocks:
        for source in SOURCES:
            merged[source].extend(block[source])
        if block["unavailable"] and block["unavailable"] not in reasons:
            reasons.append(block["unavailable"])
    merged["unavailable"] = "; ".join(reasons) or None
    return merged


def newest(block, source):
    """The newest ``{ts, line}`` of ``source`` in a logs block, or None."""
    return ((block or {}).get(source) or [None])[-1]


def _quoted(entry):
    line = entry["line"]
    if len(line) > QUOTE_CHARS:
        line = line[: QUOTE_CHARS - 1] + "\u2026"
    return f"{json.dumps(line, ensure_ascii=False)} ({entry['ts']})"


# The start script's host key block (host_keys.py parses it), never quoted as what a container said last.
_HOST_KEY_BLOCK = re.compile(r"SSH host keys:|key fingerprint:\s*$|Key: \S+\.pub\s*$|\d{2,5} SHA256:[A-Za-z0-9+/]{43}")


def quote(block):
    """What a failure says of a resource's logs: its newest container line, else its newest system line, else why
    the logs could not be read ("" without a block)."""
    if not block:
        return ""
    said = [entry for entry in block.get("container") or () if not _HOST_KEY_BLOCK.search(entry["line"])]
    if said:
        return f"last container line: {_quoted(said[-1])}"
    if (system := newest(block, "system")) is not None:
        return f"no container line yet, last system line: {_quoted(system)}"
    if block.get("unavailable"):
        return f"logs unavailable: {block['unavailable']}"
    return "no log line yet"

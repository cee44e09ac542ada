# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""How a wait ends: ``classify`` (docs/dev/wait-and-status.md, section 2), ``MissCounter`` (section 3), the cancel by
signal (``CancelToken``) and the one ``wait`` result shape (``WaitOutcome``, ``WaitError``)."""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from dataclasses import dataclass, field
from typing import Any

WAIT_TIMEOUT = "wait_timeout"
WAIT_INTERRUPTED = "wait_interrupted"

# docs/dev/wait-and-status.md, section 2: any of these ends the wait at once; everything else is transient.
FATAL_CODES = frozenset(("unauthorized", "forbidden", "no_credentials", "bad_request"))
FATAL_STATUSES = frozenset((400, 401, 403))


@dataclass(eq=False, repr=False)
class PollError(Exception):
    """A poller's verdict or a classified failure; ``fatal=True`` ends the wait at once, ``states`` (batch waits) are
    the failure's ``last_states``."""

    code: str
    message: str
    status: int | None = None
    fatal: bool = False
    states: dict | None = None

    def __post_init__(self):
        super().__init__(self.message)


def _error_chain(err):
    for _depth in range(8):  # how deep ``raise ... from`` chains are followed
        if err is None:
            return
        yield err
        err = err.__cause__


def _is_fatal_link(err):
    if getattr(err, "fatal", False) is True:
        return True
    code = getattr(err, "code", None)
    if isinstance(code, str) and code.lower() in FATAL_CODES:
        return True
    status = getattr(err, "status", None)
    return isinstance(status, int) and not isinstance(status, bool) and status in FATAL_STATUSES


def classify(err: BaseException) -> bool:
    """True when ``err`` (or an error it wraps via ``raise ... from``) is fatal, by ``code``/``status``/``fatal``."""
    return any(_is_fatal_link(link) for link in _error_chain(err))


def fatal_link(err):
    """The link of the chain that made ``err`` fatal (its code and status are reported)."""
    return next((link for link in _error_chain(err) if _is_fatal_link(link)), err)


def error_text(err: BaseException) -> str:
    """The human text of an error; untyped empty errors get their class name (``EOFError``)."""
    message = getattr(err, "message", None)
    if isinstance(message, str) and message:
        return message
    text = str(err)
    return text if text else type(err).__name__


def rate_limit_sleep(retry_after: Any, remaining: float) -> float:
    """Seconds to wait for a 429's ``Retry-After``, never past the deadline (``remaining``)."""
    try:
        return max(0.0, min(float(retry_after), remaining))
    except (TypeError, ValueError):  # None or not a number
        return 0.0


def retry_after_of(err):
    return next((link.retry_after for link in _error_chain(err) if getattr(link, "retry_after", None) is not None),
                None)


def _wait_block(wait: WaitError | WaitOutcome, last_state: str) -> dict:
    """The one ``wait`` result shape, the same keys on success and failure."""
    block = {"elapsed": wait.elapsed, "polls": wait.polls, "probes": wait.probes, "history": list(wait.history),
             "last_state": last_state}
    if wait.last_states:  # batch waits: the last known state of every resource
        block["last_states"] = dict(wait.last_states)
    return block


@dataclass(eq=False, repr=False, kw_only=True)
class WaitError(Exception):
    """A failed wait: timeout, interrupt, or a fatal poll error (whose code and status it keeps)."""

    code: str = field(kw_only=False)
    label: str = field(kw_only=False)
    message: str = field(kw_only=False)
    resource_id: str | None = None
    last_state: str = ""
    elapsed: int = 0
    polls: int = 0
    status: int | None = None
    history: list = field(default_factory=list)
    last_states: dict | None = None
    probes: int = 0

    def __post_init__(self):
        super().__init__(self.message)
        if self.history is None:
            self.history = []

    def as_dict(self) -> dict:
        return _wait_block(self, self.last_state)


@dataclass(eq=False)
class WaitOutcome:
    """A successful wait."""

    value: Any
    detail: str
    elapsed: int
    polls: int
    probes: int
    history: list
    last_states: dict | None = None

    def as_dict(self) -> dict:
        block = _wait_block(self, self.detail)
        block["ready_detail"] = self.detail
        return block

    @classmethod
    def nothing_to_wait_for(cls) -> WaitOutcome:
        return cls(None, "nothing to wait for", 0, 0, 0, [])


class MissCounter:
    """Consecutive-miss rules (docs/dev/wait-and-status.md, section 3)."""

    _TEXTS = {
        "pod": {
            "never_seen": "pod not listed yet",
            "missed_once": "pod not listed in the last read",
            "never_seen_fatal": ("pod {id} has not appeared in {n} consecutive reads, so it was terminated before "
                                 "it was ever listed, or it is not visible to this api key"),
            "gone_fatal": "pod {id} is no longer listed, so it was terminated or deleted while waiting",
        },
        "endpoint": {
            "never_seen": "{error}",
            "missed_once": "endpoint health unreadable in the last poll: {error}",
            "never_seen_fatal": ("the invoke service still does not know endpoint {id} after {n} consecutive "
                                 "reads, so it was deleted before it propagated, or it is not visible to this api key"),
            "gone_fatal": "endpoint {id} is no longer known to the invoke service, so it was deleted while waiting",
        },
        "job": {
            "never_seen": "{error}",
            "missed_once": "job status unreadable in the last poll: {error}",
            "never_seen_fatal": ("the endpoint still does not know job {id} after {n} consecutive reads, so the id is "
                                 "wrong, belongs to another endpoint, or its result has expired"),
            "gone_fatal": ("job {id} is no longer known to the endpoint: its result expired or the endpoint was "
                           "deleted while waiting"),
        },
    }

    def __init__(self, resource_kind, resource_id, never_seen_limit=12, gone_limit=2):
        if resource_kind not in self._TEXTS:
            raise ValueError(f"resource_kind must be one of {', '.join(sorted(self._TEXTS))}")
        self.kind = resource_kind
        self.resource_id = resource_id
        self.never_seen_limit = never_seen_limit
        self.gone_limit = gone_limit
        self.ever_seen = False
        self.misses = 0

    def seen(self):
        self.ever_seen = True
        self.misses = 0

    def read_failed(self):
        self.misses = 0

    def missed(self, error: BaseException | None = None) -> str:
        """Count one miss; return the not-ready detail or raise a fatal ``not_found`` ``PollError``."""
        self.misses += 1
        texts = self._TEXTS[self.kind]
        values = {"id": self.resource_id, "n": self.misses, "error": error_text(error) if error else "not found"}
        if self.ever_seen:
            if self.misses >= self.gone_limit:
                raise PollError("not_found", texts["gone_fatal"].format(**values), fatal=True)
            return texts["missed_once"].format(**values)
        if self.misses >= self.never_seen_limit:
            raise PollError("not_found", texts["never_seen_fatal"].format(**values), fatal=True)
        return texts["never_seen"].format(**values)


def is_not_found(err: BaseException) -> bool:
    """A transient 404 (``not_found``): the miss counting decides what it means."""
    return not classify(err) and (getattr(err, "status", None) == 404 or getattr(err, "code", None) == "not_found")


# How often a wait looks for a cancel made by a signal handler (``CancelToken.signal``).
SIGNAL_CHECK_EVERY = 0.1


class CancelToken:
    """Set once to end a wait with ``wait_interrupted``. A signal handler calls ``signal``, never ``cancel``: it may
    run while the main thread holds ``Event``'s lock, which ``Event.set`` would wait for forever."""

    def __init__(self):
        self._event = threading.Event()
        self._signalled = False
        self.reason = None

    @property
    def cancelled(self):
        return self._signalled or self._event.is_set()

    def cancel(self, reason="cancelled"):
        if not self.cancelled:
            self.reason = reason
        self._event.set()

    def signal(self, reason):
        """``cancel`` for a signal handler: takes no lock."""
        if not self.cancelled:
            self.reason = reason
        self._signalled = True

    def wait(self, timeout):
        deadline = time.monotonic() + max(0.0, timeout)
        while not self._signalled:
            left = deadline - time.monotonic()
            if left <= 0:
                return self.cancelled
            if self._event.wait(min(left, SIGNAL_CHECK_EVERY)):
                return True
        return True


@contextlib.contextmanager
def cancel_on_signals(token, signals=(signal.SIGINT, signal.SIGTERM)):
    """Make the first SIGINT/SIGTERM cancel ``token``, restoring the previous handlers so a second one is not
    swallowed; outside the main thread the block runs without them."""
    previous: dict[int, Any] = {}

    def restore():
        while previous:
            signum, handler = previous.popitem()
            signal.signal(signum, handler)

    def on_signal(signum, frame):
        restore()
        token.signal(f"signal {signal.Signals(signum).name}")  # never cancel(): see CancelToken

    try:
        for signum in signals:
            previous[signum] = signal.signal(signum, on_signal)
    except ValueError:  # not the main thread
        restore()
        yield token
        return
    try:
        yield token
    finally:
        restore()

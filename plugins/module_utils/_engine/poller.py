# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""What a wait polls: the interface every poller implements (``pollers``, ``endpoint_poller``, ``job_poller``), so
the waiter (``_module.waiter``) states what it sets and asks instead of probing attributes; ``TrackedPoller`` is the
one read of a single resource under the miss rules."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._engine.outcome import MissCounter, is_not_found
from ansible_collections.runpod.cloud.plugins.module_utils._engine.poll import PollResult


class Poller:
    """One poll per call: ``__call__() -> PollResult`` (``poll.until`` runs it).

    ``deadline`` (monotonic, the engine's clock) is set by the waiter before the wait: pollers that probe cap
    their probe reads at it. ``lost()`` says whether the wait saw the resource and then lost it (a ``not_found``
    ending that means deleted by someone else, not never there).
    """

    deadline: float | None = None

    def __call__(self) -> Any:
        return self.poll()

    def poll(self) -> Any:
        raise NotImplementedError

    def lost(self) -> bool:
        return False


class TrackedPoller(Poller):
    """A poller of one resource whose reads its ``MissCounter`` follows (docs/dev/wait-and-status.md, section 3):
    the wait lost the resource iff it saw it before."""

    def __init__(self, backend: Any, misses: MissCounter) -> None:
        self.backend = backend
        self.misses = misses

    def lost(self) -> bool:
        return self.misses.ever_seen

    def counted_read(self, read: Callable[[], Any]) -> tuple[PollResult | None, Any]:
        """``read()`` under the miss rules: ``(None, value)`` when it answered; ``(not-ready result, None)`` for a
        404, a counted miss (``missed`` raises the fatal ``not_found`` past its limit); any other failure ends the
        run of misses and is raised."""
        try:
            value = read()
        except Exception as err:
            if is_not_found(err):
                return PollResult(False, self.misses.missed(err)), None
            self.misses.read_failed()
            raise
        self.misses.seen()
        return None, value


class FunctionPoller(Poller):
    """A plain function as a poller (e.g. a read retried like a wait's reads)."""

    def __init__(self, function: Callable[[], Any]) -> None:
        self.function = function

    def __call__(self) -> Any:
        return self.function()

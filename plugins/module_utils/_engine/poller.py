# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""What a wait polls: the interface every poller implements (``pollers``, ``endpoint_poller``), so the waiter
(``_module.waiter``) states what it sets and asks instead of probing attributes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Poller:
    """One poll per call: ``__call__() -> PollResult`` (``poll.until`` runs it).

    ``deadline`` (monotonic, the engine's clock) is set by the waiter before the wait: pollers that probe cap
    their probe reads at it. ``lost()`` says whether the wait saw the resource and then lost it (a ``not_found``
    ending that means deleted by someone else, not never there).
    """

    deadline: float | None = None

    def __call__(self) -> Any:
        raise NotImplementedError

    def lost(self) -> bool:
        return False


class FunctionPoller(Poller):
    """A plain function as a poller (e.g. a read retried like a wait's reads)."""

    def __init__(self, function: Callable[[], Any]) -> None:
        self.function = function

    def __call__(self) -> Any:
        return self.function()

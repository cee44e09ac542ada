"""Shared unit-test fixtures: a fake clock whose sleep advances time instantly."""

from __future__ import annotations

import pytest


class FakeClock:
    """``now()``/``sleep()`` like the engine's clock; sleeping only moves ``now`` forward and is recorded.

    ``on_sleep(clock, seconds)`` runs after each sleep (e.g. to cancel a token or change the world).
    """

    def __init__(self, start=1000.0, on_sleep=None):
        self.start = start
        self.current = start
        self.sleeps = []
        self.on_sleep = on_sleep

    def now(self):
        return self.current

    def sleep(self, seconds):
        assert seconds >= 0, "the engine asked to sleep a negative time"
        self.sleeps.append(seconds)
        self.current += seconds
        if self.on_sleep is not None:
            self.on_sleep(self, seconds)

    @property
    def elapsed(self):
        return self.current - self.start


@pytest.fixture
def fake_clock():
    return FakeClock()


@pytest.fixture
def make_clock():
    """The FakeClock class itself, for tests that need a custom start or ``on_sleep`` hook."""
    return FakeClock

"""Shared unit-test fixtures: a fake clock whose sleep advances time instantly."""

from __future__ import annotations

import pytest
from helpers.fakes import FakeClock


@pytest.fixture
def fake_clock():
    return FakeClock()


@pytest.fixture
def make_clock():
    """The FakeClock class itself, for tests that need a custom start or ``on_sleep`` hook."""
    return FakeClock

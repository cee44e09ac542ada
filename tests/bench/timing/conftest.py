# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Wall-clock measurements, run by ``make bench`` (never by ``make test``: a loaded 2-core CI runner would
make them flake). Each test asserts its budget and records its figures with the ``figures`` fixture; the
session prints them all and writes ``tests/output/bench/timings.json``.

Fixtures: ``sim`` (one simulator, time_scale 0.02, reset before each test), ``run_playbook`` (as in
tests/integration), ``figures(name, **values)``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import playbooks
from helpers.paths import REPO_ROOT
from helpers.simulated import ACCOUNT_SSH_KEY, register_account_keys

from runpod_sim.testing import SimProcess, start_simulator

OUTPUT = REPO_ROOT / "tests" / "output" / "bench" / "timings.json"
_FIGURES: dict[str, dict[str, Any]] = {}


@pytest.fixture(scope="session")
def sim() -> Iterator[SimProcess]:
    with start_simulator(time_scale=0.02) as process:
        yield process


@pytest.fixture(autouse=True)
def sim_reset(sim: SimProcess) -> SimProcess:
    sim.admin.reset()
    register_account_keys(sim, [ACCOUNT_SSH_KEY])  # as tests/integration: seeded pods start sshd
    return sim


@pytest.fixture
def run_playbook(sim: SimProcess) -> Callable[..., playbooks.PlaybookResult]:
    def runner(tmp_path: Path, text: str, **kwargs: Any) -> playbooks.PlaybookResult:
        return playbooks.run_playbook(sim, tmp_path, text, **kwargs)

    return runner


@pytest.fixture
def figures() -> Callable[..., None]:
    def record(name: str, **values: Any) -> None:
        _FIGURES[name] = values

    return record


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not _FIGURES:
        return
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT.write_text(json.dumps(_FIGURES, indent=2, sort_keys=True) + "\n")
    terminalreporter.section("timings (also in %s)" % OUTPUT.relative_to(REPO_ROOT))
    for name, values in sorted(_FIGURES.items()):
        terminalreporter.write_line(f"{name}: {json.dumps(values, sort_keys=True)}")

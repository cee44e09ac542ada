# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Shared helpers for the ecosystem tests (issue 10): docs, changelog, EE, ansible-runner, release build.

Everything is discovered from disk (``plugins/modules/*.py``), never from a hard-coded module list, so the
tests follow the collection as modules are added.

Fixtures:

* ``modules_on_disk`` (session): sorted short names of ``plugins/modules/*.py``.
* ``collection_tarball`` (session): ``ansible-galaxy collection build`` of this checkout, in a temp dir.
* ``installed_collection`` (session): that tarball installed with ``ansible-galaxy collection install -p``
  into a fresh collections path; the value is the path (use it as ``ANSIBLE_COLLECTIONS_PATH``).
* ``ecosystem_sim`` (session): the local RunPod simulator with a random API key of its own.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import secrets
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.paths import REPO_ROOT, VENV_BIN, tool
from helpers.playbooks import DEPRECATION

OUTPUT_DIR = REPO_ROOT / "tests" / "output" / "ecosystem"
# The Makefile's SANITY_LOCK: ansible-test shares its virtualenvs under ~/.ansible/test, so every ansible-test
# run (make sanity, and the quality-gate test here) takes its turn on this lock; the rest of the ecosystem
# suite runs beside make sanity.
SANITY_LOCK = Path(os.environ.get("RUNPOD_CLOUD_SANITY_LOCK") or Path(os.environ.get("TMPDIR") or "/tmp")
                   / "runpod-cloud-sanity.lock")


@contextlib.contextmanager
def sanity_lock() -> Iterator[None]:
    """Hold the lock ansible-test runs take turns on (``flock`` in the Makefile takes the same one)."""
    with open(SANITY_LOCK, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def clean_env(**extra: str) -> dict[str, str]:
    """os.environ without RUNPOD_* and ANSIBLE_* variables (tests set what they need), venv first on PATH."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RUNPOD_", "ANSIBLE_"))}
    env["PATH"] = f"{VENV_BIN}{os.pathsep}{env.get('PATH', '')}"
    env["ANSIBLE_NOCOLOR"] = "1"
    env.update(extra)
    return env


# ansible-core's own commands: their output must carry no deprecation warning (as the integration suite's runs).
ANSIBLE_CORE_COMMANDS = ("ansible-doc", "ansible-galaxy", "ansible-inventory", "ansible-playbook")


def run(argv: list[str], *, cwd: Path | None = None, env: dict[str, str] | None = None, timeout: float = 300):
    """Run a command, capture text output; the caller asserts on ``returncode``. An ansible-core command whose
    output has a deprecation warning fails the test here."""
    result = subprocess.run(
        argv, cwd=cwd or REPO_ROOT, env=env or clean_env(), capture_output=True, text=True, timeout=timeout, check=False
    )
    if Path(argv[0]).name in ANSIBLE_CORE_COMMANDS:
        assert DEPRECATION not in result.stdout + result.stderr, result.stdout[-3000:] + result.stderr[-3000:]
    return result


def assert_no_deprecation(runner: Any) -> None:
    """An ansible-runner job's output has no deprecation warning (``run`` checks ansible-core's commands)."""
    said = runner.stdout.read()
    assert DEPRECATION not in said, said[-4000:]


def module_names() -> list[str]:
    return sorted(p.stem for p in (REPO_ROOT / "plugins" / "modules").glob("*.py") if p.stem != "__init__")


def inventory_plugin_names() -> list[str]:
    return sorted(p.stem for p in (REPO_ROOT / "plugins" / "inventory").glob("*.py") if p.stem != "__init__")


@pytest.fixture(scope="session")
def modules_on_disk() -> list[str]:
    names = module_names()
    if not names:
        pytest.fail("no module found in plugins/modules: the collection is broken, not unfinished")
    return names


@pytest.fixture(scope="session")
def output_dir() -> Path:
    """tests/output/ecosystem (git-ignored): artifacts a person may want to look at after a run."""
    OUTPUT_DIR.mkdir(parents=True, exist_ok=True)
    return OUTPUT_DIR


@pytest.fixture(scope="session")
def collection_tarball(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("galaxy_build")
    result = run([tool("ansible-galaxy"), "collection", "build", "--output-path", str(out), str(REPO_ROOT)])
    assert result.returncode == 0, result.stdout + result.stderr
    tarballs = list(out.glob("runpod-cloud-*.tar.gz"))
    assert len(tarballs) == 1, tarballs
    return tarballs[0]


@pytest.fixture(scope="session")
def installed_collection(collection_tarball: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    dest = tmp_path_factory.mktemp("clean_collections")
    result = run(
        [tool("ansible-galaxy"), "collection", "install", "--offline", "-p", str(dest), str(collection_tarball)],
        env=clean_env(ANSIBLE_COLLECTIONS_PATH=str(dest)),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    installed = dest / "ansible_collections" / "runpod" / "cloud"
    assert (installed / "MANIFEST.json").is_file(), list(dest.rglob("*"))[:20]
    assert not installed.is_symlink()
    return dest


@pytest.fixture(scope="session")
def ecosystem_sim() -> Iterator[Any]:
    """A simulator that only accepts a random key, so a task that succeeds proves the key reached it."""
    from runpod_sim.testing import start_simulator

    process = start_simulator(api_key=f"rpa_{secrets.token_hex(16)}", time_scale=0.02)
    try:
        yield process
    finally:
        process.stop()


@pytest.fixture
def sim(ecosystem_sim: Any) -> Any:
    ecosystem_sim.admin.reset()
    return ecosystem_sim

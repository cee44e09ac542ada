# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Where things are, and this checkout importable as ``ansible_collections.runpod.cloud``.

The collection imports itself by its FQCN, so tests need an ``ansible_collections/runpod/cloud`` tree. A
symlink tree outside the repository avoids a self-referencing link inside it. Importing this module sets up
``sys.path`` (the collection tree, ``tests/simulator``) and ``ANSIBLE_COLLECTIONS_PATH``; it is idempotent and
safe in parallel test processes (pytest-xdist workers).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
import tempfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
TESTS_ROOT = REPO_ROOT / "tests"
# The simulator package lives beside the tests, outside plugins/.
SIMULATOR_ROOT = TESTS_ROOT / "simulator"
VENV_BIN = Path(sys.executable).parent


def collections_root() -> Path:
    """Return a directory whose ``ansible_collections/runpod/cloud`` is this checkout."""
    digest = hashlib.sha1(str(REPO_ROOT).encode()).hexdigest()[:10]
    root = Path(tempfile.gettempdir()) / f"runpod_cloud_{digest}"
    link = root / "ansible_collections" / "runpod" / "cloud"
    if not link.is_symlink():
        link.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileExistsError):  # another test process made it first
            link.symlink_to(REPO_ROOT, target_is_directory=True)
    return root


COLLECTIONS_ROOT = collections_root()
for _path in (COLLECTIONS_ROOT, SIMULATOR_ROOT):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))
os.environ.setdefault("ANSIBLE_COLLECTIONS_PATH", str(COLLECTIONS_ROOT))


def tool(name: str) -> str:
    """The venv's copy of an ansible/antsibull tool (the one ``make`` uses), else the name for PATH lookup."""
    candidate = VENV_BIN / name
    return str(candidate) if candidate.exists() else name

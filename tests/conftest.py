"""Every test suite: put ``tests/`` on ``sys.path`` for the :mod:`helpers` package, which makes this checkout
importable as ``ansible_collections.runpod.cloud`` and puts ``tests/simulator`` on ``sys.path`` (helpers/paths.py).
"""

from __future__ import annotations

import sys
from pathlib import Path

_TESTS_ROOT = str(Path(__file__).resolve().parent)
if _TESTS_ROOT not in sys.path:
    sys.path.insert(0, _TESTS_ROOT)

from helpers.paths import COLLECTIONS_ROOT, REPO_ROOT  # noqa: E402 - importing it sets sys.path up

__all__ = ["COLLECTIONS_ROOT", "REPO_ROOT"]

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

# Hypothesis judges examples by what they assert, never by how fast this machine runs them: its default 200 ms
# deadline and slow-generation health check failed property tests on a loaded 2-core runner (issue 30).
from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile("runpod", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("runpod")

"""Print the collections path that makes this checkout importable as runpod.cloud."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from helpers.paths import COLLECTIONS_ROOT

print(COLLECTIONS_ROOT)

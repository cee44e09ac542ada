"""Make this checkout importable as ``ansible_collections.runpod.cloud`` for every test.

The collection imports itself by its FQCN, so tests need an ``ansible_collections/runpod/cloud``
tree. A symlink tree outside the repository avoids a self-referencing link inside it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
import tempfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


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
if str(COLLECTIONS_ROOT) not in sys.path:
    sys.path.insert(0, str(COLLECTIONS_ROOT))
os.environ.setdefault("ANSIBLE_COLLECTIONS_PATH", str(COLLECTIONS_ROOT))
# The simulator package lives beside the tests, outside plugins/.
SIMULATOR_ROOT = REPO_ROOT / "tests" / "simulator"
if str(SIMULATOR_ROOT) not in sys.path:
    sys.path.insert(0, str(SIMULATOR_ROOT))

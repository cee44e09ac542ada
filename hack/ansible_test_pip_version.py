"""Print the pip version ansible-test bootstraps into its sanity virtualenvs."""

from __future__ import annotations

import re
from pathlib import Path

import ansible_test

source = Path(ansible_test.__file__).parent / "_internal" / "python_requirements.py"
match = re.search(r"pip='([0-9.]+)'", source.read_text())
if not match:
    raise SystemExit(f"cannot find the pip version in {source}")
print(match.group(1))

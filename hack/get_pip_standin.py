"""Stand-in for pip's get-pip.py bootstrap script, used by ``ansible-test sanity`` offline.

ansible-test downloads get-pip.py to seed pip into each sanity virtualenv; on machines without
general internet access that download fails. This script is placed where ansible-test caches the
download. It installs pip with ``ensurepip`` in a subprocess (in-process ensurepip points
PIP_CONFIG_FILE at /dev/null, which would hide the machine's package index settings from the pip
run below), then runs pip with the arguments ansible-test passed, minus get-pip's own flags.
"""

from __future__ import annotations

import subprocess
import sys

GET_PIP_ONLY_FLAGS = {"--no-setuptools", "--no-wheel"}


def main() -> int:
    subprocess.check_call([sys.executable, "-m", "ensurepip", "--upgrade"])
    args = [arg for arg in sys.argv[1:] if arg not in GET_PIP_ONLY_FLAGS]
    if not args:
        return 0
    return subprocess.call([sys.executable, "-m", "pip", "install", *args])


if __name__ == "__main__":
    sys.exit(main())

"""Stand-in for pip's get-pip.py bootstrap script, used by ``ansible-test sanity`` offline.

ansible-test downloads get-pip.py to seed pip into each sanity virtualenv; on machines without
general internet access that download fails. This script is placed where ansible-test caches the
download, and installs what ansible-test asks get-pip for (pip at the version it pins).

With uv on PATH (``make sanity`` runs ansible-test with the project's .venv/bin first), uv installs
it: on a fresh machine ansible-test builds about ten virtualenvs, and the ensurepip route below
installs and byte-compiles pip twice in each (its bundled version, then the pinned one).
``--native-tls``:
ansible-test passes this script no ``SSL_CERT_FILE``, and the machine's trust store is what pip uses.

Without uv, when uv fails (an index only pip's configuration names, say), or when ansible-test
passes an option this script does not know, it installs pip with ``ensurepip`` in a subprocess
(in-process ensurepip points PIP_CONFIG_FILE at /dev/null, which would hide the machine's package
index settings from the pip run below), then runs pip with the arguments ansible-test passed,
minus get-pip's own flags.
"""

from __future__ import annotations

import shutil
import subprocess
import sys

GET_PIP_ONLY_FLAGS = {"--no-setuptools", "--no-wheel"}
# pip options ansible-test passes that only change pip's own output; uv has no use for them.
PIP_ONLY_FLAGS = {"--disable-pip-version-check"}


def uv_command(uv: str, python: str, argv: list[str]) -> list[str] | None:
    """The uv command that installs what get-pip would, or None when ``argv`` holds an option uv is not given."""
    packages = [arg for arg in argv if arg not in GET_PIP_ONLY_FLAGS | PIP_ONLY_FLAGS]
    if any(arg.startswith("-") for arg in packages):
        return None
    # get-pip installs setuptools and wheel beside pip unless told not to.
    packages += [name for name in ("setuptools", "wheel") if f"--no-{name}" not in argv]
    return [uv, "pip", "install", "--quiet", "--native-tls", "--python", python, *packages]


def main() -> int:
    uv = shutil.which("uv")
    command = uv_command(uv, sys.executable, sys.argv[1:]) if uv else None
    if command and subprocess.call(command) == 0:
        return 0
    subprocess.check_call([sys.executable, "-m", "ensurepip", "--upgrade"])
    args = [arg for arg in sys.argv[1:] if arg not in GET_PIP_ONLY_FLAGS]
    if not args:
        return 0
    return subprocess.call([sys.executable, "-m", "pip", "install", *args])


if __name__ == "__main__":
    sys.exit(main())

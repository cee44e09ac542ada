# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The controller's way to start a local tool (``ssh-keyscan``, ``ssh``) where no AnsibleModule runs: a wait resumed
by the action plugin and the inventory plugin's host key check. Modules use ``AnsibleModule.run_command``; both
answer ``_engine.host_key_check.Run``'s ``(rc, stdout, stderr)``."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence


def run_local(argv: Sequence[str]) -> tuple[int, str, str]:
    """Run ``argv`` with no stdin, text out; ``OSError`` when it cannot start. OpenSSH's own options bound its time
    (``_engine.host_key_check``)."""
    done = subprocess.run(list(argv), capture_output=True, text=True, stdin=subprocess.DEVNULL, check=False)
    return done.returncode, done.stdout, done.stderr

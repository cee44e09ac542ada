# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Arming the pod's lease watchdog from the controller after ``runpod.cloud.pod``'s ``wait_for: login``
(docs/watchdog.md): the collection's ``roles/hosts/files/runpod_cloud_watchdog.sh`` goes to the pod on stdin, over a
login like the wait's (its key, only the host keys the wait checked), and installs and starts itself."""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path
from typing import Any

SCRIPT = Path(__file__).resolve().parents[2] / "roles" / "hosts" / "files" / "runpod_cloud_watchdog.sh"
ARM = 'f=$(mktemp) && cat >"$f" && sh "$f" arm; rc=$?; rm -f "$f"; exit $rc'


def arm(pod: dict[str, Any], private_key_file: str, *, timeout: float = 60, run: Any = subprocess.run) -> dict:
    """``{"armed", "detail"}``: armed, or why not (a pod without a lease is not armed, and that is no failure)."""
    ssh = pod.get("ssh") or {}
    with tempfile.TemporaryDirectory(prefix="runpod_watchdog_") as work:
        known_hosts = os.path.join(work, "known_hosts")
        Path(known_hosts).write_text("".join(f"{line}\n" for line in ssh.get("host_keys") or ()), encoding="utf-8")
        # host_key_checking: off proved no key; the wait's login then trusted what answered, and so does this one.
        checking = "yes" if ssh.get("host_keys") else "accept-new"
        options = ("BatchMode=yes", "IdentitiesOnly=yes", f"StrictHostKeyChecking={checking}",
                   f"UserKnownHostsFile={known_hosts}", f"GlobalKnownHostsFile={os.devnull}", "ConnectTimeout=30",
                   "ControlMaster=no", "ControlPath=none")
        argv = ["ssh", "-F", os.devnull, "-T", "-p", str(ssh.get("port")), "-l", ssh.get("user") or "root",
                "-i", os.path.expanduser(private_key_file), *(arg for option in options for arg in ("-o", option)),
                str(ssh.get("host")), ARM]
        try:
            done = run(argv, input=SCRIPT.read_text(encoding="utf-8"), capture_output=True, text=True,
                       timeout=timeout, check=False)
        except (OSError, subprocess.TimeoutExpired) as err:
            return {"armed": False, "detail": f"could not run ssh to arm the watchdog: {err}"}
    said = (done.stdout.strip() or done.stderr.strip()).splitlines()
    detail = said[-1] if said else f"ssh exited {done.returncode}"
    return {"armed": done.returncode == 0 and "armed on pod" in done.stdout, "detail": detail}


def wanted(args: dict, result: dict) -> bool:
    """A ``wait_for: login`` that logged in (its ``wait`` succeeded) leaves a pod to arm."""
    pod = result.get("pod") or {}
    return (args.get("wait_for") == "login" and bool(args.get("ssh_private_key_file")) and not result.get("failed")
            and "wait" in result and bool((pod.get("ssh") or {}).get("host")))

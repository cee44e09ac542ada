# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This plugin_utils file is private to runpod.cloud and may change without notice.
"""The hand-off's host key settings, written on the controller (where Ansible's ssh connection and ``ssh`` run):
one known_hosts file per pod holding the keys a wait or the inventory checked, and the ssh options that trust only
those keys (docs/pods.md, "Trusting the pod's host key"; docs/dev/architecture.md, "The hand-off")."""

from __future__ import annotations

import os
import re
import shlex
import tempfile

# The pod modules' known_hosts_dir default and the inventory's: one file per pod id, whoever checked it.
DEFAULT_DIR = "~/.cache/runpod.cloud/known_hosts"


# A pod id names a file: nothing an API answer says may lead it out of the directory.
_SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")


def _safe(pod_id):
    return isinstance(pod_id, str) and _SAFE_ID.fullmatch(pod_id) is not None


def known_hosts_path(directory, pod_id):
    if not _safe(pod_id):
        raise ValueError(f"refusing a known_hosts file for the pod id {pod_id!r}")
    return os.path.join(directory, f"known_hosts_{pod_id}")


def write_known_hosts(directory, pod_id, lines):
    """Write ``lines`` (sorted: the same keys are the same file) to the pod's own known_hosts file in ``directory``
    (made 0700), replacing it atomically with a 0600 file; returns its absolute path."""
    directory = os.path.abspath(os.path.expanduser(directory))
    os.makedirs(directory, mode=0o700, exist_ok=True)
    path = known_hosts_path(directory, pod_id)
    text = "".join(line + "\n" for line in sorted(lines))
    try:
        with open(path, encoding="utf-8") as handle:
            if handle.read() == text:
                return path
    except OSError:
        pass
    descriptor, temporary = tempfile.mkstemp(prefix=".known_hosts_", dir=directory)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(temporary, 0o600)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
    return path


def ssh_common_args(path):
    """The connection's host key settings: only the keys in ``path`` are trusted (never trust on first use)."""
    return f"-o StrictHostKeyChecking=yes -o UserKnownHostsFile={shlex.quote(path)}"


def with_ssh_args(result, directory, private_key_file=None):
    """Give each pod of a module result (``pod``, every one of ``pods``: a fleet, pod_info, a cluster's nodes) with
    an SSH address ``ssh.ssh_args``, and make ``ssh.command`` use them: the options that trust only the keys its wait
    checked (``ssh.host_keys``, written to its known_hosts file in ``directory``), or None when none was checked
    (``host_key_checking: off``, no wait): nothing is trusted for the user then, their own ssh settings decide.
    ``private_key_file`` adds ``-i``. Returns ``result``, changed in place."""
    pods = [result.get("pod"), *(result.get("pods") or [])]
    for pod in pods:
        ssh = pod.get("ssh") if isinstance(pod, dict) else None
        if not isinstance(ssh, dict) or not ssh.get("host") or not ssh.get("port"):
            continue
        keys = ssh.get("host_keys") if _safe(pod.get("id")) else None
        ssh["ssh_args"] = ssh_common_args(write_known_hosts(directory, pod["id"], keys)) if keys else None
        if ssh["ssh_args"] or private_key_file:
            ssh["command"] = ssh_command(ssh, private_key_file)
    return result


def ssh_command(ssh, private_key_file=None):
    """``ssh [<ssh_args>] [-i <key>] -p <port> <user>@<host>``, every value quoted for a POSIX shell."""
    words = ["ssh", ssh["ssh_args"] or ""]
    if private_key_file:
        words += ["-i", shlex.quote(os.path.abspath(os.path.expanduser(private_key_file)))]
    words += ["-p", str(int(ssh["port"])), shlex.quote(f"{ssh.get('user') or 'root'}@{ssh['host']}")]
    return " ".join(word for word in words if word)

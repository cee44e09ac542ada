# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""A pod's SSH host keys as data (pure Python): the fingerprint lines RunPod's start script prints into the
container log, the SHA256 fingerprint of a key a pod presents, known_hosts lines, and what a comparison of the two
means under ``host_key_checking``. Why the log can vouch for a key: docs/pods.md, "Trusting the pod's host key"."""

from __future__ import annotations

import base64
import binascii
import hashlib
import itertools
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace

VERIFIED = "verified"
PINNED = "pinned"
MISMATCH = "mismatch"
STATUSES = (VERIFIED, PINNED, MISMATCH)
# host_key_checking: only a verified key is ready (strict), verify else pin with a warning (log), no check (off).
MODES = ("strict", "log", "off")
MISMATCH_CODE = "host_key_mismatch"
UNVERIFIED_CODE = "host_key_unverified"

# OpenSSH's key type names (known_hosts, authorized_keys, ssh-keyscan) -> the label ``ssh-keygen -l`` prints.
KEY_LABELS = {"ssh-ed25519": "ED25519", "ecdsa-sha2-nistp256": "ECDSA", "ecdsa-sha2-nistp384": "ECDSA",
              "ecdsa-sha2-nistp521": "ECDSA", "ssh-rsa": "RSA", "ssh-dss": "DSA",
              "sk-ssh-ed25519@openssh.com": "ED25519-SK", "sk-ecdsa-sha2-nistp256@openssh.com": "ECDSA-SK"}

# ``<bits> SHA256:<43 base64> <comment> (<TYPE>)``, after whatever the log put first (a time stamp, a source);
# ssh-keygen prints "no comment" for a key without one, but a hand-written line may leave it out.
_FINGERPRINT_LINE = re.compile(
    r"(?:^|\s)(?P<bits>\d{2,5}) (?P<fingerprint>SHA256:[A-Za-z0-9+/]{43})(?: (?P<comment>.*?))? ?"
    r"\((?P<label>[A-Z][A-Z0-9]*(?:-SK)?)\)\s*$"
)
_KEY_PATH_LINE = re.compile(r"(?:^|\s)Key: (?P<path>\S+\.pub)\s*$")
# sshd starting (``service ssh start``, ``sshd -D -e``), and what belongs to that start or the block after it.
_SSHD_START = re.compile(r"\bStart(?:ing|ed)\b.*(?:\bsshd\b|OpenBSD Secure Shell)|Server listening on", re.I)
_START_OUTPUT = re.compile(r"^\W*(?:\.\.\.done|\[ ?OK ?\]|OK|SSH host keys:|Key: \S+\.pub)\W*$|^\s*$", re.I)
# Terminal colours, raw or as the log reader shows control characters (``\x1b[0m``), and stray carriage returns.
_NOISE = re.compile(r"(?:\x1b|\\x1b)\[[0-9;?]*[A-Za-z]|\r|\\x0d")


@dataclass(frozen=True, slots=True)
class LoggedFingerprint:
    """One ``ssh-keygen -lf`` line of the container log; ``path`` is the ``Key:`` line before it, if any."""

    fingerprint: str
    bits: int
    comment: str
    label: str
    path: str | None = None


@dataclass(frozen=True, slots=True)
class PresentedKey:
    """A host key as known_hosts holds it (``key_type``, ``key`` in base64) and its ``SHA256:`` fingerprint."""

    key_type: str
    key: str
    fingerprint: str

    @property
    def label(self) -> str:
        return KEY_LABELS.get(self.key_type, self.key_type.upper())


@dataclass(frozen=True, slots=True)
class HostKeyCheck:
    """The presented keys against the logged fingerprints. ``trusted``: what a hand-off may trust (the matching
    keys when verified, every presented key when pinned, none on a mismatch)."""

    status: str
    presented: tuple[PresentedKey, ...]
    logged: tuple[LoggedFingerprint, ...]
    trusted: tuple[PresentedKey, ...]


@dataclass(frozen=True, slots=True)
class Verdict:
    """What ``host_key_checking`` makes of a check: ``ready``; ``failure``: fail at once with this code;
    ``warning``: say so, go on. Not ready without a failure: wait, and fail ``host_key_unverified`` at the end."""

    ready: bool
    failure: str | None = None
    warning: bool = False


def _text(entry: object) -> str:
    """A log line given as text or as the log reader's ``{"ts", "line"}`` entry."""
    if isinstance(entry, Mapping):
        entry = entry.get("line", "")
    return _NOISE.sub("", entry) if isinstance(entry, str) else ""


def logged_fingerprints(lines: Iterable[object]) -> list[LoggedFingerprint]:
    """Every ``ssh-keygen -lf`` line in ``lines`` (text or ``{"line": ...}``), in order, each fingerprint once. A
    ``Key:`` line names the next fingerprint line's file (other processes' lines may come between); a key printed
    twice (generated, then listed) gets its path from the listing."""
    found: dict[str, LoggedFingerprint] = {}
    path = None
    for entry in lines:
        text = _text(entry)
        named = _KEY_PATH_LINE.search(text)
        if named:
            path = named.group("path")
            continue
        match = _FINGERPRINT_LINE.search(text)
        if match is None:
            continue
        fingerprint = match.group("fingerprint")
        earlier = found.get(fingerprint)
        if earlier is None:
            found[fingerprint] = LoggedFingerprint(fingerprint, int(match.group("bits")),
                                                   (match.group("comment") or "").strip(), match.group("label"), path)
        elif earlier.path is None and path is not None:
            found[fingerprint] = replace(earlier, path=path)
        path = None
    return list(found.values())


class VouchWatch:
    """Fed a pod's container log line by line while ``presented()`` (blocking until the scan ends) gets its keys, true
    once the log showed every presented key's fingerprint (never for none), or sshd's start then other output with no
    fingerprint before (the start script went on without the block, as custom images do): docs/dev/logs.md rule 2."""

    def __init__(self, presented: Callable[[], Iterable[PresentedKey]]):
        self._presented, self._started, self._went_on = presented, False, False
        self._missing: set[str] | None = None
        self._seen: set[str] = set()

    def __call__(self, entry: object) -> bool:
        text = _text(entry)
        match, starts = _FINGERPRINT_LINE.search(text), bool(_SSHD_START.search(text))
        if match is not None:  # only a fingerprint needs the keys: wait for the scan (its own timeout bounds it)
            self._seen.add(match.group("fingerprint"))
            if self._missing is None:
                self._missing = {key.fingerprint for key in self._presented()}
        elif self._started and not (starts or self._seen or _START_OUTPUT.search(text)):
            self._went_on = True
        self._started = self._started or starts
        return self._went_on or bool(self._missing and self._missing <= self._seen)


def fingerprint(key: str | bytes) -> str:
    """``SHA256:`` and the unpadded base64 of the SHA-256 of the key blob: what ``ssh-keygen -lf`` prints.
    ``key`` is the blob or its base64 text (the second field of a known_hosts key); ValueError if not base64."""
    blob = key if isinstance(key, bytes) else _decode(key)
    if blob is None:
        raise ValueError("the key is not base64")
    digest = base64.b64encode(hashlib.sha256(blob).digest()).decode("ascii")
    return "SHA256:" + digest.rstrip("=")


def _decode(text: str) -> bytes | None:
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, ValueError, UnicodeEncodeError):
        return None


def _blob_type(blob: bytes) -> str | None:
    """The key type a blob names in its first field (an SSH string: 4-byte length, then the name)."""
    length = int.from_bytes(blob[:4], "big")
    if not 0 < length <= 64 or len(blob) < 4 + length:
        return None
    try:
        return blob[4:4 + length].decode("ascii")
    except UnicodeDecodeError:
        return None


def parse_key(line: str) -> PresentedKey | None:
    """The key of a known_hosts, ``ssh-keyscan``, authorized_keys or ``.pub`` line: the first ``<type> <base64>``
    pair whose blob names that type (so hosts, markers, options and comments around it do not matter)."""
    fields = line.split()
    for key_type, key in itertools.pairwise(fields):
        if not (key_type.startswith(("ssh-", "ecdsa-", "sk-")) and key.startswith("AAAA")):
            continue
        blob = _decode(key)
        if blob is not None and _blob_type(blob) == key_type:
            return PresentedKey(key_type, key, fingerprint(blob))
    return None


def parse_keys(text: str | Iterable[str]) -> list[PresentedKey]:
    """Every key of ``ssh-keyscan`` output or known_hosts / authorized_keys text, in order, each key once.
    ``\\n`` written out (as a PUBLIC_KEY env value may hold several keys) separates lines too."""
    lines = text.replace("\\n", "\n").splitlines() if isinstance(text, str) else text
    keys: dict[str, PresentedKey] = {}
    for line in lines:
        if line.lstrip().startswith("#"):
            continue
        key = parse_key(line)
        if key is not None:
            keys.setdefault(key.fingerprint, key)
    return list(keys.values())


def known_hosts_lines(host: str, port: int | str, keys: Iterable[PresentedKey]) -> list[str]:
    """One known_hosts line per key for ``host:port`` (OpenSSH names it ``[host]:port`` unless the port is 22)."""
    name = str(host) if int(port) == 22 else f"[{host}]:{int(port)}"
    return [f"{name} {key.key_type} {key.key}" for key in keys]


def check(presented: Iterable[PresentedKey], logged: Iterable[LoggedFingerprint]) -> HostKeyCheck:
    """``verified`` when a presented key's fingerprint is in the log, ``pinned`` when the log shows none,
    ``mismatch`` when it shows some and no presented key is among them. ``presented`` must not be empty (a scan
    that saw no key has nothing to check: ValueError)."""
    # In one order whatever order ssh-keyscan answered in: a rerun's result and known_hosts file are the same.
    keys, shown = tuple(sorted(presented, key=lambda key: (key.key_type, key.key))), tuple(logged)
    if not keys:
        raise ValueError("no presented host key to check")
    if not shown:
        return HostKeyCheck(PINNED, keys, shown, keys)
    vouched = {entry.fingerprint for entry in shown}
    matching = tuple(key for key in keys if key.fingerprint in vouched)
    return HostKeyCheck(VERIFIED if matching else MISMATCH, keys, shown, matching)


def verdict(status: str, mode: str) -> Verdict:
    """What ``mode`` makes of a check's ``status`` (``off`` checks nothing: its caller does not scan)."""
    if mode not in MODES:
        raise ValueError(f"host_key_checking must be one of {', '.join(MODES)}, not {mode!r}")
    if status not in STATUSES:
        raise ValueError(f"unknown host key status {status!r}")
    if mode == "off" or status == VERIFIED:
        return Verdict(ready=True)
    if status == MISMATCH:
        return Verdict(ready=False, failure=MISMATCH_CODE)
    return Verdict(ready=False) if mode == "strict" else Verdict(ready=True, warning=True)


def result_fields(result: HostKeyCheck, host: str, port: int | str) -> dict[str, object]:
    """``ssh.host_keys`` (known_hosts lines of the trusted keys), ``ssh.host_key_fingerprints`` (of every presented
    key) and ``ssh.host_key_check`` of a pod result."""
    return {"host_keys": known_hosts_lines(host, port, result.trusted),
            "host_key_fingerprints": [key.fingerprint for key in result.presented], "host_key_check": result.status}


def _listed(keys: Iterable[PresentedKey | LoggedFingerprint]) -> str:
    return ", ".join(f"{key.fingerprint} ({key.label})" for key in keys) or "none"


def mismatch_message(pod_id: str, address: str, result: HostKeyCheck) -> str:
    """The ``host_key_mismatch`` failure: both sides' fingerprints and the pod, which is kept."""
    return (f"pod {pod_id} at {address} presented host key {_listed(result.presented)}, but its container log "
            f"shows {_listed(result.logged)}: the connection may be intercepted. The pod was kept; nothing "
            "connected to it.")


def log_shows(unread: str | None = None) -> str:
    """Why the container log verified no key: it shows no fingerprints, or it could not be read (``unread``: why)."""
    return f"could not be read ({unread})" if unread else "shows no host key fingerprints"


def unverified_message(pod_id: str, address: str, result: HostKeyCheck, unread: str | None = None) -> str:
    """The ``host_key_unverified`` failure of ``strict``: no fingerprints in the log (or ``unread``: why not read)."""
    fix = "" if unread else "The image must print `ssh-keygen -lf` of each /etc/ssh/*.pub, as RunPod's images do. "
    return (f"pod {pod_id} at {address} presented host key {_listed(result.presented)}, but its container log "
            f"{log_shows(unread)}, so nothing verifies it (host_key_checking: strict). {fix}The pod was kept.")


def pinned_warning(pod_id: str, address: str, result: HostKeyCheck, unread: str | None = None) -> str:
    """The warning of ``log`` when the log shows no fingerprints (or ``unread``: why it was not read): pinned."""
    return (f"pod {pod_id} at {address}: its container log {log_shows(unread)}, so the host key seen at readiness "
            f"({_listed(result.trusted)}) is pinned without verification.")

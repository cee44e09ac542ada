"""The host key vocabulary of plugins/module_utils/_vocab/host_keys.py: the container log's fingerprint lines, the
fingerprints of presented keys (checked against OpenSSH's ``ssh-keygen -lf``), known_hosts lines and the
``verified`` / ``pinned`` / ``mismatch`` decision under each ``host_key_checking`` mode."""

from __future__ import annotations

import base64
import hashlib
import shutil
import subprocess

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ansible_collections.runpod.cloud.plugins.module_utils._vocab import host_keys as hk

ED25519 = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILXGDN/SclOozk1xsDztpmhGiKkkrfQB9SKoO8dSIQQZ me@example.com"
# RunPod's start script (runpod/containers, container-template/start.sh) on a fresh container disk.
START_SCRIPT = """\
Pod Started
Setting up SSH...
ECDSA key fingerprint:
256 SHA256:Qa1vFnvgho2biBHhGwTP2oL0Y11dq8qRHRmBr7ztVFg root@9f3c2a1b7d4e (ECDSA)
ED25519 key fingerprint:
256 SHA256:6JlzWSX1MvZFVOiFkZkyeMF2TcWZ7+3U0u1GPjaLCJg root@9f3c2a1b7d4e (ED25519)
 * Starting OpenBSD Secure Shell server sshd
   ...done.
SSH host keys:
Key: /etc/ssh/ssh_host_ecdsa_key.pub
256 SHA256:Qa1vFnvgho2biBHhGwTP2oL0Y11dq8qRHRmBr7ztVFg root@9f3c2a1b7d4e (ECDSA)
Key: /etc/ssh/ssh_host_ed25519_key.pub
256 SHA256:6JlzWSX1MvZFVOiFkZkyeMF2TcWZ7+3U0u1GPjaLCJg root@9f3c2a1b7d4e (ED25519)
Key: /etc/ssh/ssh_host_rsa_key.pub
3072 SHA256:yqDYAr6LMRLvqAL6X5RptFUBr9chbcY5WpeOPpJ7Rvw root@9f3c2a1b7d4e (RSA)
Starting Jupyter Lab...
Start script(s) finished, Pod is ready to use.
"""


def test_the_start_scripts_block_is_read_with_each_keys_file():
    found = hk.logged_fingerprints(START_SCRIPT.splitlines())
    assert found == [
        hk.LoggedFingerprint("SHA256:Qa1vFnvgho2biBHhGwTP2oL0Y11dq8qRHRmBr7ztVFg", 256, "root@9f3c2a1b7d4e", "ECDSA",
                             "/etc/ssh/ssh_host_ecdsa_key.pub"),
        hk.LoggedFingerprint("SHA256:6JlzWSX1MvZFVOiFkZkyeMF2TcWZ7+3U0u1GPjaLCJg", 256, "root@9f3c2a1b7d4e",
                             "ED25519", "/etc/ssh/ssh_host_ed25519_key.pub"),
        hk.LoggedFingerprint("SHA256:yqDYAr6LMRLvqAL6X5RptFUBr9chbcY5WpeOPpJ7Rvw", 3072, "root@9f3c2a1b7d4e", "RSA",
                             "/etc/ssh/ssh_host_rsa_key.pub"),
    ]


@pytest.mark.parametrize("line", [
    "2026-12-04T06:49:24.123456Z 256 SHA256:6JlzWSX1MvZFVOiFkZkyeMF2TcWZ7+3U0u1GPjaLCJg root@host (ED25519)",
    "[container] 256 SHA256:6JlzWSX1MvZFVOiFkZkyeMF2TcWZ7+3U0u1GPjaLCJg root@host (ED25519)\r",
    "\\x1b[0m256 SHA256:6JlzWSX1MvZFVOiFkZkyeMF2TcWZ7+3U0u1GPjaLCJg root@host (ED25519)\\x1b[0m",
    "256 SHA256:6JlzWSX1MvZFVOiFkZkyeMF2TcWZ7+3U0u1GPjaLCJg root@host (ED25519)   ",
    {"ts": "2026-12-04T06:49:24Z",
     "line": "256 SHA256:6JlzWSX1MvZFVOiFkZkyeMF2TcWZ7+3U0u1GPjaLCJg root@host (ED25519)"},
])
def test_prefixes_stamps_and_colours_around_a_line_are_tolerated(line):
    assert [(entry.fingerprint, entry.label) for entry in hk.logged_fingerprints([line])] == [
        ("SHA256:6JlzWSX1MvZFVOiFkZkyeMF2TcWZ7+3U0u1GPjaLCJg", "ED25519")]


@pytest.mark.parametrize("line", [
    "256 SHA256:6JlzWSX1MvZFVOiFkZkyeMF2TcWZ7+3U0u1GPjaLCJ root@host (ED25519)",  # 42 characters
    "256 SHA256:6JlzWSX1MvZFVOiFkZkyeMF2TcWZ7+3U0u1GPjaLCJgX root@host (ED25519)",  # 44
    "256 MD5:6a:1b:2c:3d:4e:5f:60:71:82:93:a4:b5:c6:d7:e8:f9 root@host (ED25519)",
    "SHA256:6JlzWSX1MvZFVOiFkZkyeMF2TcWZ7+3U0u1GPjaLCJg root@host (ED25519)",  # no bits
    "256 SHA256:6JlzWSX1MvZFVOiFkZkyeMF2TcWZ7+3U0u1GPjaLCJg root@host",  # no type
    "The key's randomart image is:",
    None,
])
def test_other_lines_are_not_fingerprints(line):
    assert hk.logged_fingerprints([line]) == []


def test_a_hand_written_line_without_a_comment_and_a_repeat_counted_once():
    lines = ["256 SHA256:6JlzWSX1MvZFVOiFkZkyeMF2TcWZ7+3U0u1GPjaLCJg (ED25519)",
             "Key: /etc/ssh/ssh_host_ed25519_key.pub",
             "256 SHA256:6JlzWSX1MvZFVOiFkZkyeMF2TcWZ7+3U0u1GPjaLCJg no comment (ED25519)"]
    assert hk.logged_fingerprints(lines) == [hk.LoggedFingerprint(
        "SHA256:6JlzWSX1MvZFVOiFkZkyeMF2TcWZ7+3U0u1GPjaLCJg", 256, "", "ED25519", "/etc/ssh/ssh_host_ed25519_key.pub")]


# -- the parser against any interleaving of other log lines --------------------------------------------------
_fingerprints = st.binary(min_size=32, max_size=32).map(
    lambda digest: "SHA256:" + base64.b64encode(digest).decode().rstrip("="))
_key_types = [("ecdsa", 256, "ECDSA"), ("ed25519", 256, "ED25519"), ("rsa", 3072, "RSA"), ("dsa", 1024, "DSA")]
_keys = st.lists(st.tuples(_fingerprints, st.sampled_from(_key_types),
                           st.from_regex(r"[a-z0-9]{1,16}", fullmatch=True)),
                 min_size=1, max_size=4, unique_by=lambda key: key[0])
# Lines other processes print: anything that is neither a fingerprint line nor a ``Key:`` line (and holds no
# terminal colour, whose removal could make one).
_other = st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\n\r\x1b\\"), max_size=80).filter(
    lambda line: not hk.logged_fingerprints([line]) and "Key: " not in line)
_prefixes = st.sampled_from(["", "2026-12-04T06:49:24.000001Z ", "[container] ", "pod-1 | "])


@given(keys=_keys, other=st.lists(_other, max_size=12), order=st.randoms(use_true_random=False),
       prefixes=st.lists(_prefixes, min_size=40, max_size=40))
def test_the_block_is_read_through_any_interleaving_of_other_lines(keys, other, order, prefixes):
    block = ["SSH host keys:"]
    for fingerprint, (name, bits, label), host in keys:
        block += [f"Key: /etc/ssh/ssh_host_{name}_key.pub", f"{bits} {fingerprint} root@{host} ({label})"]
    # Merge the block and the other lines, each keeping its own order.
    slots = [True] * len(block) + [False] * len(other)
    order.shuffle(slots)
    mine, theirs = iter(block), iter(other)
    lines = [next(mine) if slot else next(theirs) for slot in slots]
    lines = [prefixes[index % len(prefixes)] + line for index, line in enumerate(lines)]
    assert hk.logged_fingerprints(lines) == [
        hk.LoggedFingerprint(fingerprint, bits, f"root@{host}", label, f"/etc/ssh/ssh_host_{name}_key.pub")
        for fingerprint, (name, bits, label), host in keys]


# -- fingerprints of presented keys ----------------------------------------------------------------------------
def test_a_fingerprint_is_the_unpadded_base64_of_the_sha256_of_the_blob():
    blob = base64.b64decode(ED25519.split()[1])
    expected = "SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")
    assert hk.fingerprint(ED25519.split()[1]) == hk.fingerprint(blob) == expected and len(expected) == 7 + 43
    with pytest.raises(ValueError):
        hk.fingerprint("not base64!")


@pytest.mark.parametrize("line", [
    ED25519,
    "[127.0.0.1]:40022 " + " ".join(ED25519.split()[:2]),
    "@cert-authority *.example.com " + ED25519,
    "|1|Zm9vYmFyYmF6cXV4Zm9vYmFy|Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXU= " + " ".join(ED25519.split()[:2]),
    'command="echo hi",no-pty ' + ED25519,
])
def test_the_key_of_any_known_hosts_keyscan_or_authorized_keys_line(line):
    key = hk.parse_key(line)
    assert key is not None and key.key_type == "ssh-ed25519" and key.key == ED25519.split()[1]
    assert key.label == "ED25519"


@pytest.mark.parametrize("line", ["", "# 127.0.0.1:22 SSH-2.0-OpenSSH_9.6", "ssh-ed25519 AAAAnotbase64!",
                                  "ssh-rsa " + ED25519.split()[1]])  # the blob names another type
def test_lines_without_a_key(line):
    assert hk.parse_key(line) is None


def test_keys_of_a_public_key_env_value_with_written_out_line_breaks():
    other = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIIcd9Xx/X3ldS4q0noLL1QiQNj6GKCjuymc0Q87iinub root@vm"
    keys = hk.parse_keys(f"{ED25519}\\n{other}\\n{ED25519}\n# a comment")
    assert [key.key for key in keys] == [ED25519.split()[1], other.split()[1]]


@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs OpenSSH's ssh-keygen")
@pytest.mark.parametrize(("key_type", "bits"), [("ed25519", None), ("ecdsa", "256"), ("ecdsa", "521"),
                                                ("rsa", "2048")])
def test_fingerprints_equal_what_ssh_keygen_prints_for_real_keys(tmp_path, key_type, bits):
    path = tmp_path / f"host_{key_type}_key"
    subprocess.run(["ssh-keygen", "-q", "-t", key_type, *(["-b", bits] if bits else []), "-N", "", "-C",
                    "root@pod", "-f", str(path)], check=True)
    printed = subprocess.run(["ssh-keygen", "-lf", f"{path}.pub"], capture_output=True, text=True,
                             check=True).stdout
    (logged,) = hk.logged_fingerprints(printed.splitlines())
    key = hk.parse_key((tmp_path / f"host_{key_type}_key.pub").read_text())
    assert key is not None and key.fingerprint == logged.fingerprint
    assert logged.label == key.label and logged.comment == "root@pod"
    assert str(logged.bits) == printed.split()[0]


# -- known_hosts and the decision ------------------------------------------------------------------------------
def test_known_hosts_lines_name_the_port_as_openssh_does():
    key = hk.parse_key(ED25519)
    assert key is not None
    assert hk.known_hosts_lines("203.0.113.7", 40022, [key]) == [f"[203.0.113.7]:40022 {' '.join(ED25519.split()[:2])}"]
    assert hk.known_hosts_lines("203.0.113.7", "22", [key]) == [f"203.0.113.7 {' '.join(ED25519.split()[:2])}"]
    assert hk.known_hosts_lines("2001:db8::1", 2222, [key]) == [f"[2001:db8::1]:2222 {' '.join(ED25519.split()[:2])}"]


def _key(seed: str) -> hk.PresentedKey:
    return hk.PresentedKey("ssh-ed25519", seed, "SHA256:" + seed)


def _logged(*seeds: str) -> list[hk.LoggedFingerprint]:
    return [hk.LoggedFingerprint("SHA256:" + seed, 256, "root@pod", "ED25519") for seed in seeds]


def test_check_verified_pinned_and_mismatch():
    ecdsa, ed25519 = _key("a"), _key("b")
    verified = hk.check([ecdsa, ed25519], _logged("b", "old"))
    assert verified.status == "verified" and verified.trusted == (ed25519,)  # only what the log vouches for
    pinned = hk.check([ecdsa, ed25519], [])
    assert pinned.status == "pinned" and pinned.trusted == (ecdsa, ed25519)
    mismatch = hk.check([ecdsa], _logged("c"))
    assert mismatch.status == "mismatch" and mismatch.trusted == ()
    with pytest.raises(ValueError):
        hk.check([], _logged("a"))
    assert hk.result_fields(verified, "203.0.113.7", 40022) == {
        "host_keys": ["[203.0.113.7]:40022 ssh-ed25519 b"],
        "host_key_fingerprints": ["SHA256:a", "SHA256:b"],
        "host_key_check": "verified"}


@given(keys=st.lists(st.tuples(st.sampled_from(["ssh-ed25519", "ecdsa-sha2-nistp256", "ssh-rsa"]),
                               st.text("abcdef", min_size=1, max_size=4)), min_size=1, max_size=4, unique=True),
       order=st.randoms(use_true_random=False), logged=st.booleans())
def test_the_result_is_the_same_whatever_order_the_keys_were_presented_in(keys, order, logged):
    presented = [hk.PresentedKey(key_type, key, f"SHA256:{key_type}{key}") for key_type, key in keys]
    shuffled = list(presented)
    order.shuffle(shuffled)
    vouched = _logged(*[f"{key_type}{key}" for key_type, key in keys]) if logged else []
    first, second = hk.check(presented, vouched), hk.check(shuffled, vouched)
    assert first == second  # ssh-keyscan answers its key types in any order: a rerun's known_hosts is the same
    assert hk.result_fields(first, "127.0.0.1", 40022) == hk.result_fields(second, "127.0.0.1", 40022)


@pytest.mark.parametrize(("status", "mode", "expected"), [
    ("verified", "strict", hk.Verdict(ready=True)),
    ("verified", "log", hk.Verdict(ready=True)),
    ("verified", "off", hk.Verdict(ready=True)),
    ("pinned", "strict", hk.Verdict(ready=False)),
    ("pinned", "log", hk.Verdict(ready=True, warning=True)),
    ("pinned", "off", hk.Verdict(ready=True)),
    ("mismatch", "strict", hk.Verdict(ready=False, failure="host_key_mismatch")),
    ("mismatch", "log", hk.Verdict(ready=False, failure="host_key_mismatch")),
    ("mismatch", "off", hk.Verdict(ready=True)),
])
def test_what_each_mode_makes_of_each_status(status, mode, expected):
    assert hk.verdict(status, mode) == expected


def test_an_unknown_mode_or_status_is_refused():
    with pytest.raises(ValueError, match="strict, log, off"):
        hk.verdict("verified", "yes")
    with pytest.raises(ValueError):
        hk.verdict("trusted", "log")


def test_the_messages_name_both_sides_and_the_pod():
    presented, logged = _key("presented"), _logged("logged")
    mismatch = hk.check([presented], logged)
    text = hk.mismatch_message("pod123", "203.0.113.7:40022", mismatch)
    assert "pod123" in text and "SHA256:presented (ED25519)" in text and "SHA256:logged (ED25519)" in text
    assert "kept" in text
    pinned = hk.check([presented], [])
    assert "strict" in hk.unverified_message("pod123", "203.0.113.7:40022", pinned)
    assert "pinned" in hk.pinned_warning("pod123", "203.0.113.7:40022", pinned)


def test_strict_says_why_nothing_verifies_the_key_a_log_without_fingerprints_or_a_log_not_read():
    unverified = hk.check([_key("presented")], [])
    head = "pod p1 at 203.0.113.7:40022 presented host key SHA256:presented (ED25519), but its container log "
    assert hk.unverified_message("p1", "203.0.113.7:40022", unverified) == (
        head + "shows no host key fingerprints, so nothing verifies it (host_key_checking: strict). The image must "
        "print `ssh-keygen -lf` of each /etc/ssh/*.pub, as RunPod's images do. The pod was kept.")
    # A log that could not be read says so, with the reason: the image is not to blame, so no advice on printing.
    assert hk.unverified_message("p1", "203.0.113.7:40022", unverified, unread="reading the logs failed (403)") == (
        head + "could not be read (reading the logs failed (403)), so nothing verifies it (host_key_checking: "
        "strict). The pod was kept.")
    # The pinned warning of log and the wait's detail say it in the same words.
    for unread in (None, "no answer in time"):
        said = hk.log_shows(unread)
        assert f"its container log {said}, so " in hk.pinned_warning("p1", "203.0.113.7:40022", unverified, unread)
    assert hk.log_shows() == "shows no host key fingerprints"
    assert hk.log_shows("no answer in time") == "could not be read (no answer in time)"


# -- a log read that stops once every presented key is vouched for ----------------------------------------------


@given(presented=st.lists(_fingerprints, min_size=1, max_size=3, unique=True),
       others=st.lists(_fingerprints, max_size=3, unique=True),
       picks=st.lists(st.tuples(st.integers(0, 2), st.integers(0, 5)), max_size=14),
       other=st.lists(_other, min_size=1, max_size=4))
def test_a_read_stopped_by_the_watch_gives_the_check_of_the_whole_log(presented, others, picks, other):
    keys = [hk.PresentedKey("ssh-ed25519", f"key{index}", fingerprint) for index, fingerprint in enumerate(presented)]
    pools = [presented, [fp for fp in others if fp not in presented] or [None], other]
    lines = []
    for pool, index in picks:
        chosen = pools[pool][index % len(pools[pool])]
        if chosen is not None:
            lines.append(f"256 {chosen} root@pod (ED25519)" if pool < 2 else chosen)
    watch = hk.VouchWatch(lambda: keys)
    stopped = next((index for index, line in enumerate(lines) if watch(line)), None)
    shown = {entry.fingerprint for entry in hk.logged_fingerprints(lines)}
    # It stops exactly at the line that completes the set of presented fingerprints, and never without it.
    assert (stopped is not None) == (set(presented) <= shown)
    if stopped is None:
        return
    before = {entry.fingerprint for entry in hk.logged_fingerprints(lines[:stopped])}
    assert not set(presented) <= before
    whole = hk.check(keys, hk.logged_fingerprints(lines))
    read = hk.check(keys, hk.logged_fingerprints(lines[:stopped + 1]))
    assert read.status == whole.status == "verified"
    assert hk.result_fields(read, "127.0.0.1", 40022) == hk.result_fields(whole, "127.0.0.1", 40022)


def test_the_watch_reads_the_readers_entries_and_is_never_satisfied_by_no_keys():
    key = hk.PresentedKey("ssh-ed25519", "k", "SHA256:" + "A" * 43)
    watch = hk.VouchWatch(lambda: [key])
    assert not watch({"ts": "t", "line": "SSH host keys:"})
    assert watch({"ts": "t", "line": "\\x1b[0m256 SHA256:" + "A" * 43 + " root@pod (ED25519)"})
    assert not hk.VouchWatch(lambda: [])("256 SHA256:" + "A" * 43 + " root@pod (ED25519)")

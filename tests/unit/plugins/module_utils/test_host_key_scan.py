"""``scan`` and ``ssh_login`` (plugins/module_utils/_engine/host_key_check.py) against the simulator's real sshd (a
pod per test, its host keys printed into its container log as RunPod's start script does), with OpenSSH's own
``ssh-keyscan`` and ``ssh``; and the classification of ``ssh``'s answers with a stand-in process runner."""

from __future__ import annotations

import shutil
import subprocess

import httpx
import pytest

from ansible_collections.runpod.cloud.plugins.module_utils._engine import host_key_check as hkc
from ansible_collections.runpod.cloud.plugins.module_utils._vocab import host_keys as hk
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.log_lines import SSEParser, read_event
from ansible_collections.runpod.cloud.plugins.plugin_utils._local_command import run_local
from runpod_sim.testing import start_simulator

OPENSSH = all(shutil.which(tool) for tool in ("ssh", "ssh-keyscan", "ssh-keygen"))
needs_openssh = pytest.mark.skipif(not OPENSSH, reason="needs the OpenSSH client (ssh, ssh-keyscan, ssh-keygen)")
GPU = {"id": "NVIDIA GeForce RTX 4090", "count": 1}


@pytest.fixture(scope="module")
def sim():
    process = start_simulator(time_scale=0.01)
    try:
        yield process
    finally:
        process.stop()


@pytest.fixture
def clean_sim(sim):
    sim.admin.reset()
    yield sim
    sim.admin.assert_contract()


def _keygen(path):
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "user@controller", "-f", str(path)],
                   check=True)
    return path, path.with_name(path.name + ".pub").read_text().strip()


@pytest.fixture(scope="module")
def key_pair(tmp_path_factory):
    """``(private key file, public key line)`` made by ssh-keygen (mode 0600, as ssh wants it)."""
    if not OPENSSH:
        pytest.skip("needs the OpenSSH client")
    return _keygen(tmp_path_factory.mktemp("keys") / "id_ed25519")


def make_pod(sim, name="hk", listening=True, **body):
    """A pod created through REST v2, RUNNING with port 22 mapped (and listening unless told otherwise)."""
    headers = {"Authorization": f"Bearer {sim.api_key}"}
    payload = {"name": name, "image": "runpod/base:1.0", "gpu": GPU, "ports": ["22/tcp"], **body}
    created = httpx.post(f"{sim.urls['api_v2']}/pods", json=payload, headers=headers, timeout=30)
    assert created.status_code == 201, created.text
    pod_id = created.json()["id"]
    sim.admin.wait_pod(pod_id, "RUNNING", listening=listening, mapped=True)
    pod = httpx.get(f"{sim.urls['api_v2']}/pods/{pod_id}", headers=headers, timeout=30).json()
    return pod_id, pod["ssh"]["direct"]["port"]


def container_lines(sim, pod_id, count):
    """The pod's container lines as the collection reads them (its SSE parser), until ``count`` came or the
    stream went quiet for a second."""
    parser, lines = SSEParser(), []
    url = f"{sim.urls['api_v2']}/pods/{pod_id}/logs"
    with httpx.stream("GET", url, params={"source": "container"}, headers={"Authorization": f"Bearer {sim.api_key}"},
                      timeout=httpx.Timeout(10, read=1)) as response:
        try:
            for text in response.iter_text():
                lines += [read_event(data)["line"] for _id, _event, data in parser.feed(text)]
                if len(lines) >= count:
                    break
        except httpx.ReadTimeout:
            pass
    return lines


def verified_keys(sim, pod_id, port):
    scanned = hkc.scan("127.0.0.1", port, timeout=10, run=run_local)
    assert scanned.ok, scanned.detail
    return hk.check(scanned.keys, hk.logged_fingerprints(container_lines(sim, pod_id, 12)))


# -- against the simulator's real sshd -------------------------------------------------------------------------
@needs_openssh
def test_scan_verify_and_log_in(clean_sim, key_pair):
    key_file, public = key_pair
    pod_id, port = make_pod(clean_sim, env={"PUBLIC_KEY": public})
    scanned = hkc.scan("127.0.0.1", port, timeout=10, run=run_local)
    assert scanned.ok and f"127.0.0.1:{port} presented 2 host key(s)" == scanned.detail
    assert {key.fingerprint for key in scanned.keys} == set(clean_sim.admin.pod(pod_id)["host_key_fingerprints"])
    result = hk.check(scanned.keys, hk.logged_fingerprints(container_lines(clean_sim, pod_id, 12)))
    assert result.status == "verified" and len(result.trusted) == 2
    login = hkc.ssh_login("127.0.0.1", port, "root", str(key_file), result.trusted, timeout=10, run=run_local,
                          pod_keys=hk.parse_keys(public))
    assert login.ok and login.outcome == "ok", login.detail
    # One verified key is enough: ssh asks for the algorithm known_hosts holds.
    (ed25519,) = [key for key in result.trusted if key.key_type == "ssh-ed25519"]
    assert hkc.ssh_login("127.0.0.1", port, "root", str(key_file), [ed25519], timeout=10, run=run_local).ok


@needs_openssh
def test_a_pod_that_logs_other_keys_is_a_mismatch_and_a_pod_that_logs_none_is_pinned(clean_sim, key_pair):
    _key_file, public = key_pair
    clean_sim.admin.configure(name_overrides={"liar": {"ssh_host_key_log": "wrong"},
                                              "quiet": {"ssh_host_key_log": "none"}})
    for name, status in (("liar", "mismatch"), ("quiet", "pinned")):
        pod_id, port = make_pod(clean_sim, name=name, env={"PUBLIC_KEY": public})
        scanned = hkc.scan("127.0.0.1", port, timeout=10, run=run_local)
        lines = container_lines(clean_sim, pod_id, 12)
        assert hk.check(scanned.keys, hk.logged_fingerprints(lines)).status == status, lines


@needs_openssh
def test_a_host_key_other_than_the_trusted_one_stops_the_login(clean_sim, key_pair, tmp_path):
    key_file, public = key_pair
    _pod_id, port = make_pod(clean_sim, env={"PUBLIC_KEY": public})
    _other_file, other_public = _keygen(tmp_path / "not_the_host")
    login = hkc.ssh_login("127.0.0.1", port, "root", str(key_file), hk.parse_keys(other_public), timeout=10,
                          run=run_local)
    assert login.outcome == "host_key" and "host key verification failed" in login.detail.lower()


@needs_openssh
def test_a_key_the_pod_was_not_given_is_refused_as_the_wrong_key(clean_sim, key_pair, tmp_path):
    key_file, _public = key_pair
    _other_file, other_public = _keygen(tmp_path / "someone_else")
    pod_id, port = make_pod(clean_sim, env={"PUBLIC_KEY": other_public})
    trusted = verified_keys(clean_sim, pod_id, port).trusted
    login = hkc.ssh_login("127.0.0.1", port, "root", str(key_file), trusted, timeout=10, run=run_local,
                          pod_keys=hk.parse_keys(other_public))
    assert login.outcome == "login_refused" and "wrong key" in login.detail, login.detail
    assert "permission denied" in login.detail.lower()
    # Not knowing what the pod was given, the reason stays general.
    plain = hkc.ssh_login("127.0.0.1", port, "root", str(key_file), trusted, timeout=10, run=run_local)
    assert plain.outcome == "login_refused" and "refused the key for user root" in plain.detail


@needs_openssh
def test_no_key_reached_the_pod(clean_sim, key_pair):
    """An image with its own sshd, created without PUBLIC_KEY: sshd answers, nobody gets in."""
    key_file, _public = key_pair
    clean_sim.admin.configure(own_sshd_images=["my/sshd:1"])
    pod_id, port = make_pod(clean_sim, image="my/sshd:1")
    trusted = verified_keys(clean_sim, pod_id, port).trusted
    login = hkc.ssh_login("127.0.0.1", port, "root", str(key_file), trusted, timeout=10, run=run_local,
                          pod_keys=[])
    assert login.outcome == "login_refused" and "no key reached the pod" in login.detail


@needs_openssh
@pytest.mark.parametrize("login_knob", ["no_key", "root_refused"])
def test_a_pod_given_the_key_that_refuses_it(clean_sim, key_pair, login_knob):
    key_file, public = key_pair
    pod_id, port = make_pod(clean_sim, env={"PUBLIC_KEY": public})
    trusted = verified_keys(clean_sim, pod_id, port).trusted
    clean_sim.admin.set_pod_behaviour(pod_id, ssh_login=login_knob)
    login = hkc.ssh_login("127.0.0.1", port, "root", str(key_file), trusted, timeout=10, run=run_local,
                          pod_keys=hk.parse_keys(public))
    assert login.outcome == "login_refused" and "was given this key" in login.detail and "root" in login.detail


@needs_openssh
def test_a_private_key_file_ssh_will_not_use(clean_sim, key_pair, tmp_path):
    key_file, public = key_pair
    pod_id, port = make_pod(clean_sim, env={"PUBLIC_KEY": public})
    trusted = verified_keys(clean_sim, pod_id, port).trusted
    loose = tmp_path / "loose_key"
    shutil.copyfile(key_file, loose)
    loose.chmod(0o644)
    login = hkc.ssh_login("127.0.0.1", port, "root", str(loose), trusted, timeout=10, run=run_local,
                          pod_keys=hk.parse_keys(public))
    assert login.outcome == "login_refused" and "private key file could not be used" in login.detail


@needs_openssh
def test_nothing_listening_yet_is_transient_and_a_banner_without_keys_is_no_scan(clean_sim, key_pair):
    key_file, public = key_pair
    _pod_id, refused_port = make_pod(clean_sim, name="keyless", listening=None)  # no PUBLIC_KEY: sshd never starts
    login = hkc.ssh_login("127.0.0.1", refused_port, "root", str(key_file), [], timeout=5, run=run_local)
    assert login.outcome == "transient" and "refused" in login.detail.lower()
    assert not hkc.scan("127.0.0.1", refused_port, timeout=2, run=run_local).ok
    clean_sim.admin.configure(ssh_behaviour="banner")
    _pod_id, banner_port = make_pod(clean_sim, name="banner", env={"PUBLIC_KEY": public})
    scanned = hkc.scan("127.0.0.1", banner_port, timeout=1, run=run_local)
    assert not scanned.ok and scanned.keys == () and f"127.0.0.1:{banner_port}" in scanned.detail
    stalled = hkc.ssh_login("127.0.0.1", banner_port, "root", str(key_file), [], timeout=1,
                            run=run_local)
    assert stalled.outcome == "transient"


# -- without the tools, and ssh's answers one by one ------------------------------------------------------------
def test_a_missing_tool_is_named():
    scanned = hkc.scan("127.0.0.1", 22, which=lambda _name: None, run=run_local)
    assert scanned.unavailable and not scanned.ok and "ssh-keyscan was not found on PATH" in scanned.detail
    login = hkc.ssh_login("127.0.0.1", 22, "root", "/nonexistent", [], which=lambda _name: None,
                          run=run_local)
    assert login.outcome == "unavailable" and "ssh was not found on PATH" in login.detail


class Recorder:
    """A stand-in for a run_command: records the argv, answers ``(code, stdout, stderr)`` or raises."""

    def __init__(self, answer):
        self.answer = answer
        self.calls = []

    def __call__(self, argv):
        self.calls.append(list(argv))
        if isinstance(self.answer, BaseException):
            raise self.answer
        return self.answer


def _which(name):
    return f"/usr/bin/{name}"


def test_the_scan_runs_ssh_keyscan_within_the_deadline():
    ed25519 = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILXGDN/SclOozk1xsDztpmhGiKkkrfQB9SKoO8dSIQQZ"
    run = Recorder((0, f"[10.0.0.5]:40022 {ed25519}\n", "# 10.0.0.5:40022 SSH-2.0-OpenSSH_9.6\n"))
    scanned = hkc.scan("10.0.0.5", 40022, timeout=30, deadline=102.5, clock=lambda: 100.0, which=_which,
                       run=run)
    assert scanned.ok and [key.key_type for key in scanned.keys] == ["ssh-ed25519"]
    # ssh-keyscan's own timeout (whole seconds, rounded up) bounds the scan by the deadline: no kill timer.
    assert run.calls[0] == ["/usr/bin/ssh-keyscan", "-p", "40022", "-T", "3", "10.0.0.5"]
    cannot = hkc.scan("10.0.0.5", 40022, timeout=1, which=_which, run=Recorder(PermissionError(13, "denied")))
    assert cannot.unavailable and "cannot run /usr/bin/ssh-keyscan" in cannot.detail
    nothing = hkc.scan("10.0.0.5", 40022, which=_which, run=Recorder((1, "", "write: Broken pipe\n")))
    assert nothing.detail == "ssh-keyscan of 10.0.0.5:40022 saw no host key: write: Broken pipe"


@pytest.mark.parametrize(("answer", "outcome", "words"), [
    ((0, "", ""), "ok", "ran true"),
    ((255, "", "root@10.0.0.5: Permission denied (publickey).\n"), "login_refused", "Permission denied"),
    ((142, 'Please login as the user "ubuntu" rather than the user "root".\n', ""), "login_refused",
     "`true` exited 142: Please login as the user"),
    ((255, "", "No ED25519 host key is known for [10.0.0.5]:40022 and you have requested strict checking.\n"
               "Host key verification failed.\n"), "host_key", "Host key verification failed"),
    ((255, "", "kex_exchange_identification: read: Connection reset by peer\n"), "transient", "Connection reset"),
    ((255, "", "ssh: connect to host 10.0.0.5 port 40022: Connection timed out\n"), "transient", "timed out"),
    (FileNotFoundError(2, "No such file or directory"), "unavailable", "cannot run /usr/bin/ssh"),
])
def test_what_each_answer_of_ssh_means(answer, outcome, words):
    run = Recorder(answer)
    login = hkc.ssh_login("10.0.0.5", 40022, "root", "/keys/id", [], timeout=10, which=_which, run=run)
    assert login.outcome == outcome and words in login.detail, login.detail
    argv = run.calls[0]
    for option in ("BatchMode=yes", "StrictHostKeyChecking=yes", "IdentitiesOnly=yes", "ConnectTimeout=10",
                   "ServerAliveInterval=1", "ServerAliveCountMax=10"):
        assert option in argv
    assert argv[-2:] == ["10.0.0.5", "true"] and argv[argv.index("-i") + 1] == "/keys/id"


@pytest.mark.parametrize(("pod_keys", "words"), [
    ("unknown", "the pod refused the key for user root"),
    ("none", "no key reached the pod"),
    ("other", "wrong key: the pod was given SHA256:other, not SHA256:offered"),
    ("same", "the pod was given this key (SHA256:offered) but refused it for user root"),
])
def test_the_reason_of_a_refusal(pod_keys, words):
    offered = hk.PresentedKey("ssh-ed25519", "AAAA", "SHA256:offered")
    given = {"unknown": None, "none": [], "other": [hk.PresentedKey("ssh-ed25519", "BBBB", "SHA256:other")],
             "same": [offered]}
    assert words in hkc.refusal_reason("root", offered, given[pod_keys])
    if pod_keys == "same":  # the public half unread: the reason says so
        assert "could not be read" in hkc.refusal_reason("root", None, given[pod_keys])

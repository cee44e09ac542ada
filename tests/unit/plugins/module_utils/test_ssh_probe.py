"""SSH banner probe against real loopback listeners opened by the tests."""

from __future__ import annotations

import concurrent.futures
import contextlib
import socket
import threading
import time

import pytest

from ansible_collections.runpod.cloud.plugins.module_utils._engine import ssh_probe as _ssh_probe
from ansible_collections.runpod.cloud.plugins.module_utils._engine.ssh_probe import (
    ProbeResult,
    format_address,
    probe,
    probe_many,
)


class Listener:
    """A loopback TCP server whose per-connection behaviour is a function of the accepted socket."""

    def __init__(self, behaviour):
        self.behaviour = behaviour
        self.server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(8)
        self.port = self.server.getsockname()[1]
        self.connections = 0
        self.release = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while True:
            try:
                conn, _ignored = self.server.accept()
            except OSError:
                return
            self.connections += 1
            threading.Thread(target=self._handle, args=(conn,), daemon=True).start()

    def _handle(self, conn):
        try:
            self.behaviour(conn, self.release)
        except OSError:
            pass
        finally:
            conn.close()

    def close(self):
        self.release.set()
        with contextlib.suppress(OSError):
            self.server.shutdown(socket.SHUT_RDWR)  # wakes the blocked accept() at once
        self.server.close()
        self.thread.join(timeout=2)


@pytest.fixture
def listen():
    opened = []

    def start(behaviour):
        listener = Listener(behaviour)
        opened.append(listener)
        return listener

    yield start
    for listener in opened:
        listener.close()


def send(data):
    def behaviour(conn, release):
        conn.sendall(data)
        release.wait(2)

    return behaviour


def silence(conn, release):
    release.wait(5)


def accept_then_close(conn, release):
    pass


def closed_port():
    """A loopback port with nothing listening (bound then released)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    return port


def test_real_openssh_banner_is_ready(listen):
    server = listen(send(b"SSH-2.0-OpenSSH_9.6\r\n"))
    result = probe("127.0.0.1", server.port)
    assert result.ok is True
    assert result.address == "127.0.0.1:%d" % server.port
    assert result.detail == "ssh reachable at 127.0.0.1:%d" % server.port
    assert server.connections == 1


def test_banner_arriving_in_pieces_is_still_read_exactly(listen):
    first_piece_sent, rest_wanted = threading.Event(), threading.Event()

    def behaviour(conn, release):
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        conn.sendall(b"SS")
        first_piece_sent.set()
        rest_wanted.wait(5)  # ordered by the test, not by elapsed time
        conn.sendall(b"H-2.0-x\r\n")
        release.wait(2)

    port = listen(behaviour).port
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pending = pool.submit(probe, "127.0.0.1", port)
        assert first_piece_sent.wait(5)
        assert not pending.done()  # two bytes are not a banner: the probe is still reading
        rest_wanted.set()
        assert pending.result(timeout=10).ok is True


def test_http_answer_is_not_an_ssh_server(listen):
    server = listen(send(b"HTTP/1.1 400 Bad Request\r\n\r\n"))
    result = probe("127.0.0.1", server.port)
    assert result.ok is False
    assert result.detail == "127.0.0.1:%d answered but is not an ssh server" % server.port


def test_accept_then_close_is_no_banner_eof(listen):
    server = listen(accept_then_close)
    result = probe("127.0.0.1", server.port)
    assert result.ok is False
    assert result.detail == "connected to 127.0.0.1:%d but got no ssh banner: EOF" % server.port


def test_short_banner_then_close_is_unexpected_eof(listen):
    server = listen(lambda conn, release: conn.sendall(b"SS"))
    result = probe("127.0.0.1", server.port)
    assert result.detail == "connected to 127.0.0.1:%d but got no ssh banner: unexpected EOF" % server.port


def test_silence_times_out_as_no_banner(listen):
    server = listen(silence)
    started = time.monotonic()
    result = probe("127.0.0.1", server.port, read_timeout=0.2)
    # The 0.2 s read timeout, not the 5 s default nor the server's 5 s of silence, ended the read.
    assert 0.15 < time.monotonic() - started < 4.5
    assert result.ok is False
    assert result.detail == "connected to 127.0.0.1:%d but got no ssh banner: read: i/o timeout" % server.port


def test_overall_deadline_caps_the_read_timeout(listen):
    server = listen(silence)
    started = time.monotonic()
    result = probe("127.0.0.1", server.port, read_timeout=5, deadline=time.monotonic() + 0.2)
    assert time.monotonic() - started < 4.5  # the deadline, not the 5 s read timeout, ended the read
    assert "no ssh banner" in result.detail


def test_passed_deadline_still_tries_once_with_a_tiny_timeout(listen):
    server = listen(send(b"SSH-2.0-late\r\n"))
    result = probe("127.0.0.1", server.port, deadline=time.monotonic() - 10)
    # Either the banner raced in or the tiny timeout fired; never a hang and never a crash.
    assert result.ok or "no ssh banner" in result.detail or "connect:" in result.detail


def test_closed_port_gives_the_dial_error():
    port = closed_port()
    result = probe("127.0.0.1", port)
    assert result.ok is False
    assert result.detail == "dial tcp 127.0.0.1:%d: connect: connection refused" % port


def test_bad_port_is_a_dial_error_not_a_crash():
    result = probe("127.0.0.1", 70000)
    assert result.ok is False
    assert result.detail.startswith("dial tcp 127.0.0.1:70000: connect: ")


def test_connect_timeout_text(monkeypatch):
    def timeout(*args, **kwargs):
        raise TimeoutError("timed out")

    monkeypatch.setattr(_ssh_probe.socket, "create_connection", timeout)
    assert probe("192.0.2.1", 22).detail == "dial tcp 192.0.2.1:22: connect: i/o timeout"


def test_lookup_failure_text(monkeypatch):
    def unresolvable(*args, **kwargs):
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(_ssh_probe.socket, "create_connection", unresolvable)
    result = probe("pod.example.invalid", 22)
    assert result.detail == "dial tcp: lookup pod.example.invalid: name or service not known"
    assert result.address == "pod.example.invalid:22"


def test_connect_uses_the_capped_timeout(monkeypatch):
    seen = {}

    def record(address, timeout):
        seen["timeout"] = timeout
        raise ConnectionRefusedError(111, "Connection refused")

    monkeypatch.setattr(_ssh_probe.socket, "create_connection", record)
    probe("10.0.0.1", 22, connect_timeout=5, deadline=100.5, clock=lambda: 100.0)
    assert seen["timeout"] == pytest.approx(0.5)
    probe("10.0.0.1", 22, connect_timeout=5, deadline=200.0, clock=lambda: 100.0)
    assert seen["timeout"] == 5


def test_error_texts_for_untyped_errors():
    assert _ssh_probe._os_error_text(OSError("Weird Thing")) == "weird thing"
    assert _ssh_probe._os_error_text(OSError()) == "OSError"
    assert _ssh_probe._os_error_text(OSError(110, "Connection timed out")) == "i/o timeout"


def test_format_address_brackets_ipv6():
    assert format_address("::1", 22) == "[::1]:22"
    assert format_address("1.2.3.4", 51227) == "1.2.3.4:51227"


def test_probe_result_equality_and_repr():
    first = ProbeResult(True, "ssh reachable at a:1", "a:1")
    assert first == ProbeResult(True, "ssh reachable at a:1", "a:1")
    assert first != ProbeResult(False, "x", "a:1")
    assert (first == "a:1") is False
    assert "ok=True" in repr(first)


class OpenConnections:
    """Counts the quiet servers' connections open at once: sequential probes never overlap, concurrent ones do."""

    def __init__(self, expected):
        self.open = self.peak = self.closed = 0
        self.expected = expected
        self.all_closed = threading.Event()
        self.lock = threading.Lock()

    def __call__(self, conn, release):
        with self.lock:
            self.open += 1
            self.peak = max(self.peak, self.open)
        try:
            conn.settimeout(10)
            conn.recv(1)  # returns when the probe gives up and closes its end
        finally:
            with self.lock:
                self.open -= 1
                self.closed += 1
                if self.closed == self.expected:
                    self.all_closed.set()


def test_probe_many_runs_concurrently_and_keys_results(listen):
    ssh = listen(send(b"SSH-2.0-OpenSSH_9.6\r\n"))
    counter = OpenConnections(4)
    quiet = [listen(counter) for _ignored in range(4)]
    refused = closed_port()
    targets = {"ssh": ("127.0.0.1", ssh.port), "refused": ("127.0.0.1", refused)}
    targets.update({"quiet%d" % n: ("127.0.0.1", server.port) for n, server in enumerate(quiet)})
    results = probe_many(targets, read_timeout=1.0)
    assert counter.all_closed.wait(10)
    assert counter.peak == 4  # all four silent servers were being read at the same time
    assert results["ssh"].ok is True
    assert results["refused"].detail.endswith("connection refused")
    assert all("no ssh banner" in results["quiet%d" % n].detail for n in range(4))
    assert set(results) == set(targets)


def test_probe_many_of_nothing_is_empty():
    assert probe_many({}) == {}

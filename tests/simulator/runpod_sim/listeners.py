# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Real loopback TCP ports for pods' public tcp ports, and the scripted behaviour behind port 22.

A mapped port is *reserved*: a socket bound to 127.0.0.1 that does not listen, so connects are refused
(exactly what a mapped-but-not-yet-up sshd looks like). When the pod's SSH comes up the socket starts
listening with the pod's behaviour; when the pod stops, the socket is closed and the port released.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shlex
import shutil
import signal
import socket
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncssh

log = logging.getLogger("runpod_sim.listeners")

CONTAINER_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
SSH_BANNER = b"SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13.5\r\n"
NOT_SSH_ANSWER = b"HTTP/1.1 400 Bad Request\r\n"
# The host keys each pod's real sshd generates and presents, in the glob order of /etc/ssh/*.pub: (algorithm, file
# name part, bits, the label ``ssh-keygen -l`` prints). RunPod's images add rsa (and dsa); an RSA key takes tens of
# milliseconds to generate, too slow for a thousand pods.
HOST_KEY_TYPES = (("ecdsa-sha2-nistp256", "ecdsa", 256, "ECDSA"), ("ssh-ed25519", "ed25519", 256, "ED25519"))
# What an image's own start script prints around ``service ssh start`` (``ssh_host_key_log: started``): sshd's start,
# then the script goes on; no fingerprint, no ``SSH host keys:`` block.
SSHD_STARTED_LOG = (" * Starting OpenBSD Secure Shell server sshd", "   ...done.",
                    "Start script(s) finished, pod is ready to use.")
# The sshd's settings (store.SimConfig) when no store is attached.
_SSHD_DEFAULTS = {"ssh_host_key_log": "print", "ssh_login": "key"}

_FAKE_NVIDIA_SMI = """#!/bin/sh
# runpod_sim stand-in for nvidia-smi: reports the pod's GPU type and count.
GPU_NAME={gpu_name}
GPU_COUNT={gpu_count}
UTIL_FILE={util_file}
case "$1" in
  -L)
    i=0
    while [ "$i" -lt "$GPU_COUNT" ]; do
      echo "GPU $i: $GPU_NAME (UUID: GPU-00000000-0000-0000-0000-00000000000$i)"
      i=$((i + 1))
    done
    ;;
  --query-gpu=utilization.gpu*)
    # The utilization the simulator holds for the pod (Pod.utilization): one line per GPU.
    i=0
    while [ "$i" -lt "$GPU_COUNT" ]; do
      sed -n "$((i + 1))p" "$UTIL_FILE" 2>/dev/null | grep . || echo 0
      i=$((i + 1))
    done
    ;;
  --query-gpu=*)
    i=0
    while [ "$i" -lt "$GPU_COUNT" ]; do
      case "$1" in
        *count*) echo "$GPU_COUNT" ;;
        *) echo "$GPU_NAME" ;;
      esac
      i=$((i + 1))
    done
    ;;
  *)
    if [ "$GPU_COUNT" -eq 0 ]; then
      echo "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver." >&2
      exit 9
    fi
    echo "+-----------------------------------------------------------------------------+"
    echo "| NVIDIA-SMI 570.124.06   Driver Version: 570.124.06   CUDA Version: 12.8     |"
    echo "|-----------------------------------------------------------------------------|"
    i=0
    while [ "$i" -lt "$GPU_COUNT" ]; do
      echo "|   $i  $GPU_NAME |"
      i=$((i + 1))
    done
    echo "+-----------------------------------------------------------------------------+"
    ;;
esac
"""


def _bind_loopback(port: int = 0) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.setblocking(False)
    return sock


@dataclass
class _Port:
    pod_id: str
    private: int
    port: int
    sock: socket.socket | None
    server: Any = None  # asyncio.Server or _ShapedSSHServer while listening
    behaviour: str | None = None
    banner_delay: float = 0.0


def _generate_host_keys() -> list[Any]:
    return [asyncssh.generate_private_key(alg) for alg, *_rest in HOST_KEY_TYPES]


@dataclass
class _PodHostKeys:
    """A pod's host keys (kept while its container disk lives: across restarts, not across stop and start) and the
    decoys that the ``wrong`` host key log prints instead (made when first printed)."""

    keys: list[Any]
    decoys: list[Any] | None = None
    printed_once: bool = False
    running: bool = False  # sshd started (and printed) and has not stopped since

    def logged(self, mode: str) -> list[Any]:
        if mode != "wrong":
            return self.keys
        if self.decoys is None:
            self.decoys = _generate_host_keys()
        return self.decoys


def _spec(key: Any) -> tuple[str, str, int, str]:
    return next(spec for spec in HOST_KEY_TYPES if spec[0] == key.algorithm.decode())


def public_line(key: Any) -> str:
    """``<algorithm> <base64>``: the key as known_hosts and ``ssh-keyscan`` show it."""
    return " ".join(key.export_public_key().decode().split()[:2])


def fingerprint_line(key: Any, hostname: str) -> str:
    """What ``ssh-keygen -lf`` prints for the key's ``.pub`` (generated as root in a container named ``hostname``)."""
    _alg, _name, bits, label = _spec(key)
    return f"{bits} {key.get_fingerprint('sha256')} root@{hostname} ({label})"


def host_key_log(keys: list[Any], hostname: str, *, generated: bool) -> list[str]:
    """The container lines of RunPod's start script (``setup_ssh`` in runpod/containers' start.sh): the fingerprint
    of each key it generated (a fresh container disk), sshd's start, then ``SSH host keys:`` with each key."""
    lines = ["Setting up SSH..."]
    if generated:
        for key in keys:
            lines += [f"{_spec(key)[3]} key fingerprint:", fingerprint_line(key, hostname)]
    lines += [" * Starting OpenBSD Secure Shell server sshd", "   ...done.", "SSH host keys:"]
    for key in keys:
        lines += [f"Key: /etc/ssh/ssh_host_{_spec(key)[1]}_key.pub", fingerprint_line(key, hostname)]
    return lines


class _PodSSHServer(asyncssh.SSHServer):
    """Public-key auth against the keys the pod was created with (env PUBLIC_KEY), user root only; ``login()``
    says at each attempt whom the pod lets in (``ssh_login``: key, no_key, root_refused)."""

    def __init__(self, authorized: list[bytes], login: Callable[[], str] = lambda: "key") -> None:
        self._authorized = authorized
        self._login = login

    def begin_auth(self, username: str) -> bool:
        return True

    def password_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        # no_key: PUBLIC_KEY never reached authorized_keys; root_refused: PermitRootLogin no (root is the only user).
        if self._login() != "key":
            return False
        return username == "root" and key.public_data in self._authorized


class _HomeSFTPServer(asyncssh.SFTPServer):
    """The host filesystem, with relative paths resolved against the pod's HOME (as OpenSSH's sftp-server does)."""

    def __init__(self, chan: Any, home: str) -> None:
        super().__init__(chan)
        self._home = os.fsencode(home)

    def map_path(self, path: bytes) -> bytes:
        if not path.startswith(b"/"):
            path = self._home + (b"/" + path if path not in (b"", b".") else b"")
        return super().map_path(path)


def parse_authorized_keys(text: str) -> list[bytes]:
    keys = []
    for line in (text or "").replace("\\n", "\n").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            keys.append(asyncssh.import_public_key(line).public_data)
        except (asyncssh.KeyImportError, ValueError):
            log.info("ignoring an unparseable PUBLIC_KEY line")
    return keys


class ListenerManager:
    """Owns every pod port socket; the store calls the sync methods, the ticker applies them asynchronously."""

    def __init__(self, state_dir: str | None = None) -> None:
        self._ports: dict[tuple[str, int], _Port] = {}
        self._wanted: dict[str, tuple[Any, bool, str, float]] = {}  # pod id -> (pod, listen, behaviour, delay)
        self._owns_state_dir = state_dir is None
        self.state_dir = Path(state_dir or tempfile.mkdtemp(prefix="runpod_sim_"))
        self._host_keys: dict[str, _PodHostKeys] = {}  # pod id -> its sshd's keys, made at its first start
        self._ran_commands: set[str] = set()  # pods whose sshd ran a command (processes stop_processes kills)
        self._log_offsets: dict[str, int] = {}  # pod id -> bytes of its container.log already read
        # The REST v2 base URL the pods' processes call (RUNPOD_CLOUD_API_URL), set by app.Sim.
        self.api_url: Callable[[], str] = lambda: ""
        self._lock = asyncio.Lock()
        # Async callables run on every reconcile (the cluster overlay listeners of api_v2_clusters.py).
        self.reconcile_hooks: list[Any] = []
        # The pod's setting (Store.pod_setting, set by the store) and where container lines go (logs.LogBook).
        self.pod_setting: Callable[[Any, str], Any] = lambda pod, key: _SSHD_DEFAULTS[key]
        self.log_sink: Callable[[str, list[str]], None] | None = None

    # -- sync API used by the store ------------------------------------------------------------------------------
    def reserve(self, pod_id: str, private: int) -> int:
        sock = _bind_loopback(0)
        port = sock.getsockname()[1]
        self._ports[(pod_id, private)] = _Port(pod_id, private, port, sock)
        return port

    def release(self, pod_id: str, private: int) -> None:
        entry = self._ports.pop((pod_id, private), None)
        if entry is not None:
            self._close_entry(entry)

    def release_all(self, pod_id: str) -> None:
        for key in [key for key in self._ports if key[0] == pod_id]:
            self.release(*key)
        self._wanted.pop(pod_id, None)
        self.stop_processes(pod_id)
        # A stopped pod loses its container disk, /etc/ssh with it: the next start generates new host keys.
        self._host_keys.pop(pod_id, None)

    def want(self, pod: Any, listen: bool, behaviour: str, banner_delay: float = 0.0) -> None:
        self._wanted[pod.id] = (pod, listen, behaviour, banner_delay)
        # The container starts sshd (and prints its keys) when the store says so, in the order of the simulated
        # steps, even if a later step of the same request stops it before a listener ever opens: what the log
        # shows does not depend on when requests happen to come.
        sshd = listen and behaviour == "sshd" and (pod.id, 22) in self._ports
        held = self._host_keys.get(pod.id)
        if sshd and (held is None or not held.running):
            held = self.host_keys_of(pod.id)
            held.running = True
            self._print_host_keys(pod, held)
        elif not sshd and held is not None:
            held.running = False

    def host_keys_of(self, pod_id: str) -> _PodHostKeys:
        held = self._host_keys.get(pod_id)
        if held is None:
            held = self._host_keys[pod_id] = _PodHostKeys(_generate_host_keys())
        return held

    def pending(self) -> bool:
        return bool(self._wanted)

    def port_state(self, pod_id: str) -> dict[str, Any]:
        return {
            str(private): {"port": entry.port, "listening": entry.server is not None, "behaviour": entry.behaviour}
            for (owner, private), entry in self._ports.items()
            if owner == pod_id
        }

    def home_dir(self, pod_id: str) -> Path:
        return self.state_dir / "pods" / pod_id / "home"

    def stop_processes(self, pod_id: str | None = None) -> None:
        """A container that stops takes its processes with it: kill every process a login to the pod started
        (``setsid``/``nohup`` ones included), found by the ``RUNPOD_SIM_POD_DIR`` in its environment."""
        pods = [pod_id] if pod_id is not None else list(self._ran_commands)
        markers = {f"RUNPOD_SIM_POD_DIR={self.state_dir / 'pods' / pod}".encode() for pod in pods
                   if pod in self._ran_commands}
        self._ran_commands.difference_update(pods)
        if not markers:
            return
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            with contextlib.suppress(OSError):
                if markers.intersection((entry / "environ").read_bytes().split(b"\0")):
                    os.kill(int(entry.name), signal.SIGKILL)

    def write_utilization(self, pod: Any) -> None:
        """What the pod's nvidia-smi reports: one GPU utilization percent a line (``Pod.utilization``)."""
        gpus = pod.utilization.get("gpus") or []
        path = self.state_dir / "pods" / pod.id / "gpu_util"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(f"{int(gpu.get('util', 0))}\n" for gpu in gpus))

    def container_output(self, pod_id: str) -> list[str]:
        """Lines the pod's processes wrote to its container log (``RUNPOD_CLOUD_WATCHDOG_LOG``) since the last call:
        what PID 1's stdout is on RunPod."""
        path = self.state_dir / "pods" / pod_id / "container.log"
        try:
            with path.open("rb") as handle:
                handle.seek(self._log_offsets.get(pod_id, 0))
                data = handle.read()
        except OSError:
            return []
        complete = data[: data.rfind(b"\n") + 1]
        self._log_offsets[pod_id] = self._log_offsets.get(pod_id, 0) + len(complete)
        return complete.decode(errors="replace").splitlines()

    def host_key_state(self, pod_id: str) -> dict[str, list[str]]:
        """The keys the pod's sshd presents (``<algorithm> <base64>``) and their ``SHA256:`` fingerprints."""
        held = self._host_keys.get(pod_id)
        keys = held.keys if held is not None else []
        return {
            "host_keys": [public_line(key) for key in keys],
            "host_key_fingerprints": [key.get_fingerprint("sha256") for key in keys],
        }

    # -- async application -------------------------------------------------------------------------------------
    async def reconcile(self) -> None:
        """Start or stop listeners so they match what the store wants; awaited before each API response."""
        for hook in self.reconcile_hooks:
            await hook()
        if not self._wanted:
            return
        async with self._lock:
            wanted, self._wanted = self._wanted, {}
            for pod, listen, behaviour, banner_delay in wanted.values():
                entry = self._ports.get((pod.id, 22))
                if entry is None:
                    continue
                target = behaviour if listen and behaviour != "refused" else None
                same = entry.behaviour == target and entry.banner_delay == banner_delay
                if same and (target is None or entry.server is not None):
                    continue
                await self._stop_listening(entry)
                if target is not None:
                    entry.banner_delay = banner_delay
                    await self._start_listening(entry, pod, target)

    async def close(self) -> None:
        self.stop_processes()
        for entry in list(self._ports.values()):
            await self._stop_listening(entry, rebind=False)
            self._close_entry(entry)
        self._ports.clear()
        if self._owns_state_dir:
            shutil.rmtree(self.state_dir, ignore_errors=True)

    async def _start_listening(self, entry: _Port, pod: Any, behaviour: str) -> None:
        sock = entry.sock if entry.sock is not None else _bind_loopback(entry.port)
        entry.sock = None  # the server owns it now
        if behaviour == "sshd":
            entry.server = await self._start_sshd(sock, pod, entry.banner_delay)
        else:
            handler = {"accept_close": _accept_close, "not_ssh": _not_ssh, "banner": _banner_only}[behaviour]
            entry.server = await asyncio.start_server(handler, sock=sock)
        entry.behaviour = behaviour

    async def _stop_listening(self, entry: _Port, *, rebind: bool = True) -> None:
        server, entry.server = entry.server, None
        entry.behaviour = None
        if server is None:
            return
        server.close()
        with contextlib.suppress(TimeoutError, Exception):
            await asyncio.wait_for(server.wait_closed(), timeout=2)
        if rebind and (entry.pod_id, entry.private) in self._ports:
            # Keep the port reserved (bound, refusing) for the pod's next RUNNING.
            try:
                entry.sock = _bind_loopback(entry.port)
            except OSError:
                entry.sock = None

    @staticmethod
    def _close_entry(entry: _Port) -> None:
        if entry.server is not None:
            entry.server.close()
            entry.server = None
        if entry.sock is not None:
            entry.sock.close()
            entry.sock = None

    def _prepare_home(self, pod: Any) -> tuple[Path, Path]:
        pod_dir = self.state_dir / "pods" / pod.id
        home = pod_dir / "home"
        bin_dir = pod_dir / "bin"
        home.mkdir(parents=True, exist_ok=True)
        bin_dir.mkdir(parents=True, exist_ok=True)
        smi = bin_dir / "nvidia-smi"
        smi.write_text(
            _FAKE_NVIDIA_SMI.format(
                gpu_name=shlex.quote(pod.gpu_type or ""), gpu_count=pod.gpu_count if pod.is_gpu else 0,
                util_file=shlex.quote(str(pod_dir / "gpu_util")),
            )
        )
        self.write_utilization(pod)
        smi.chmod(0o755)
        return home, bin_dir

    def _print_host_keys(self, pod: Any, held: _PodHostKeys) -> None:
        """What the start script prints as sshd starts, into the pod's container log (``ssh_host_key_log``)."""
        generated, held.printed_once = not held.printed_once, True
        mode = self.pod_setting(pod, "ssh_host_key_log")
        if mode == "none" or self.log_sink is None:
            return
        if mode == "started":
            self.log_sink(pod.id, list(SSHD_STARTED_LOG))
            return
        self.log_sink(pod.id, host_key_log(held.logged(mode), pod.id, generated=generated))

    async def _start_sshd(self, sock: socket.socket, pod: Any, banner_delay: float) -> Any:
        home, bin_dir = self._prepare_home(pod)
        authorized = parse_authorized_keys(pod.env.get("PUBLIC_KEY", ""))
        held = self.host_keys_of(pod.id)
        # What the container booted with: RunPod resolves {{ RUNPOD_SECRET_<name> }} then (Pod.boot_env).
        booted = pod.boot_env if pod.boot_env is not None else pod.env
        base_env = {
            **{key: str(value) for key, value in booted.items()},
            "HOME": str(home),
            "USER": "root",
            "LOGNAME": "root",
            "SHELL": "/bin/sh",
            # A container's PATH, not the simulator's (which may hold pyenv shims or virtualenvs).
            "PATH": f"{bin_dir}:{CONTAINER_PATH}",
            "LANG": "C.UTF-8",
            "RUNPOD_POD_ID": pod.id,
            "RUNPOD_GPU_COUNT": str(pod.gpu_count if pod.is_gpu else 0),
            # RunPod's pod-scoped key (acts on this pod only, app.Sim.pod_scope), and where the watchdog of
            # runpod.cloud finds this API and the container log (docs/watchdog.md).
            "RUNPOD_API_KEY": pod.api_key,
            "RUNPOD_CLOUD_API_URL": self.api_url(),
            "RUNPOD_CLOUD_WATCHDOG_LOG": str(home.parent / "container.log"),
        }

        async def handle_process(process: asyncssh.SSHServerProcess) -> None:
            env = dict(base_env)
            env.update({str(k): str(v) for k, v in (process.env or {}).items()})
            env.update({"HOME": str(home), "RUNPOD_POD_ID": pod.id, "RUNPOD_SIM_POD_DIR": str(home.parent)})
            self._ran_commands.add(pod.id)
            command = process.command
            argv = ["/bin/sh", "-c", command] if command is not None else ["/bin/sh", "-i"]
            await _run_local(process, argv, env, str(home))

        options = {
            "server_host_keys": held.keys,
            "server_factory": lambda: _PodSSHServer(authorized, lambda: self.pod_setting(pod, "ssh_login")),
            "process_factory": handle_process,
            "sftp_factory": lambda chan: _HomeSFTPServer(chan, str(home)),
            "allow_scp": True,
            "encoding": None,
            "keepalive_interval": 0,
        }
        shaped = _ShapedSSHServer(options, banner_delay)
        shaped.server = await asyncio.start_server(shaped.handle, sock=sock)
        return shaped


class _ShapedSSHServer:
    """A real SSH server whose version line reaches the client in two pieces, ``banner_delay`` seconds apart.

    Real sshd banners arrive late (host load, reverse DNS) and TCP may split them, so a probe that reads once,
    or gives up early, is wrong. Each client connection is relayed through a socket pair to asyncssh.
    """

    def __init__(self, options: dict[str, Any], banner_delay: float) -> None:
        self.options = options
        self.banner_delay = banner_delay
        self.server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        inner, outer = socket.socketpair()
        ssh_task = asyncio.ensure_future(self._serve(inner))
        relay_writer = None
        try:
            relay_reader, relay_writer = await asyncio.open_connection(sock=outer)
            await asyncio.gather(
                self._pump(relay_reader, writer, shape=True), self._pump(reader, relay_writer, shape=False)
            )
        except (ConnectionError, OSError, asyncio.CancelledError):
            pass
        finally:
            ssh_task.cancel()
            # Close through the transports that own the sockets: closing a socket under its transport lets the
            # next connection's socket reuse the file descriptor while the old transport still watches it.
            for stream in (writer, relay_writer):
                if stream is not None:
                    with contextlib.suppress(Exception):
                        stream.close()
            if relay_writer is None:
                outer.close()
            if task is not None:
                self._tasks.discard(task)

    async def _serve(self, sock: socket.socket) -> None:
        try:
            async with asyncssh.run_server(sock, **self.options) as conn:
                await conn.wait_closed()
        except (asyncssh.Error, OSError, asyncio.CancelledError):
            pass

    async def _pump(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter, *, shape: bool) -> None:
        first = shape
        try:
            while True:
                data = await source.read(65536)
                if not data:
                    break
                if first:
                    first = False
                    sink.write(data[:3])  # "SSH" now, "-2.0-..." later
                    await sink.drain()
                    await asyncio.sleep(self.banner_delay)
                    data = data[3:]
                sink.write(data)
                await sink.drain()
        finally:
            with contextlib.suppress(Exception):
                if sink.can_write_eof():
                    sink.write_eof()
                else:
                    sink.close()

    def close(self) -> None:
        if self.server is not None:
            self.server.close()
        for task in list(self._tasks):
            task.cancel()

    async def wait_closed(self) -> None:
        if self.server is not None:
            await self.server.wait_closed()


async def _run_local(process: asyncssh.SSHServerProcess, argv: list[str], env: dict[str, str], cwd: str) -> None:
    try:
        local = await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=env,
            cwd=cwd,
            start_new_session=True,
        )
    except OSError as exc:
        process.stderr.write(f"runpod_sim: cannot run command: {exc}\n".encode())
        process.exit(127)
        return

    async def pump_in() -> None:
        try:
            while True:
                data = await process.stdin.read(65536)
                if not data:
                    break
                local.stdin.write(data)
                await local.stdin.drain()
        except (BrokenPipeError, ConnectionResetError, asyncssh.Error):
            pass
        finally:
            with contextlib.suppress(Exception):
                local.stdin.close()

    async def pump_out(reader: asyncio.StreamReader, writer: Any) -> None:
        while True:
            chunk = await reader.read(65536)
            if not chunk:
                break
            writer.write(chunk)
            await writer.drain()

    feeder = asyncio.ensure_future(pump_in())
    try:
        await asyncio.gather(pump_out(local.stdout, process.stdout), pump_out(local.stderr, process.stderr))
        code = await local.wait()
    except (asyncssh.Error, ConnectionError, BrokenPipeError):
        if local.returncode is None:
            local.kill()
        code = await local.wait()
    finally:
        feeder.cancel()
    with contextlib.suppress(asyncssh.Error, OSError):
        process.exit(code if code >= 0 else 128 - code)


async def _accept_close(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    writer.close()


async def _not_ssh(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    writer.write(NOT_SSH_ANSWER)
    try:
        await writer.drain()
    finally:
        writer.close()


async def _banner_only(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    writer.write(SSH_BANNER)
    try:
        await writer.drain()
        while await reader.read(4096):  # idle until the client gives up
            pass
    except ConnectionError:
        pass
    finally:
        writer.close()

# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The public 22 port is a real loopback socket whose behaviour is scripted per pod; sshd is a real SSH server."""

from __future__ import annotations

import asyncio
import socket

import asyncssh
import pytest


def _connect(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=3)


def _read_all(sock: socket.socket, limit: int = 4096) -> bytes:
    chunks = b""
    try:
        while len(chunks) < limit:
            data = sock.recv(limit)
            if not data:
                break
            chunks += data
    except TimeoutError:
        pass
    return chunks


def _set_default(sim, behaviour):
    sim.admin.configure(ssh_behaviour=behaviour)


def test_refused_port_is_bound_but_refuses(sim, running_pod):
    _set_default(sim, "refused")
    pod = running_pod()
    port = pod["ssh"]["direct"]["port"]
    with pytest.raises(ConnectionRefusedError):
        _connect(port)
    # Reserved: nobody else can bind it while the pod maps it.
    with socket.socket() as other, pytest.raises(OSError):
        other.bind(("127.0.0.1", port))


def test_accept_close(sim, running_pod):
    _set_default(sim, "accept_close")
    pod = running_pod()
    with _connect(pod["ssh"]["direct"]["port"]) as sock:
        sock.settimeout(3)
        assert _read_all(sock) == b""


def test_not_ssh_answers_http_400(sim, running_pod):
    _set_default(sim, "not_ssh")
    pod = running_pod()
    with _connect(pod["ssh"]["direct"]["port"]) as sock:
        assert _read_all(sock).startswith(b"HTTP/1.1 400 Bad Request\r\n")


def test_banner_only_sends_ssh_banner_then_idles(sim, running_pod):
    _set_default(sim, "banner")
    pod = running_pod()
    with _connect(pod["ssh"]["direct"]["port"]) as sock:
        sock.settimeout(0.5)
        data = _read_all(sock)
        assert data.startswith(b"SSH-2.0-") and data.endswith(b"\r\n")


def test_ssh_delay_keeps_port_refusing_after_running(sim, v2, create_pod):
    sim.admin.configure(ssh_delay=100000)  # effectively never at time_scale 0.01
    pod = create_pod()
    sim.admin.wait_pod(pod["id"], "RUNNING", listening=False, mapped=True)
    running = v2.get(f"/pods/{pod['id']}").json()
    assert running["ssh"]["direct"] is not None
    with pytest.raises(ConnectionRefusedError):
        _connect(running["ssh"]["direct"]["port"])
    sim.admin.set_pod_behaviour(pod["id"], ssh_delay=0, ssh_behaviour="banner")
    sim.admin.wait_pod(pod["id"], "RUNNING", listening=True)
    with _connect(running["ssh"]["direct"]["port"]) as sock:
        assert sock.recv(4) == b"SSH-"


def test_per_pod_behaviour_change_swaps_the_listener(sim, running_pod):
    _set_default(sim, "banner")
    pod = running_pod()
    port = pod["ssh"]["direct"]["port"]
    sim.admin.set_pod_behaviour(pod["id"], ssh_behaviour="not_ssh")
    with _connect(port) as sock:
        assert _read_all(sock).startswith(b"HTTP/1.1 400")


def test_stop_closes_the_port_and_start_remaps(sim, v2, running_pod):
    _set_default(sim, "banner")
    pod = running_pod()
    port = pod["ssh"]["direct"]["port"]
    v2.post(f"/pods/{pod['id']}/action", json={"action": "stop"})
    with pytest.raises(ConnectionRefusedError):
        _connect(port)
    v2.post(f"/pods/{pod['id']}/action", json={"action": "start"})
    sim.admin.wait_pod(pod["id"], "RUNNING", listening=True)
    new_port = v2.get(f"/pods/{pod['id']}").json()["ssh"]["direct"]["port"]
    with _connect(new_port) as sock:
        assert sock.recv(4) == b"SSH-"


def test_restart_drops_and_restores_the_listener_on_the_same_port(sim, v2, running_pod):
    _set_default(sim, "banner")
    sim.admin.configure(starting_delay=30)
    pod = running_pod()
    port = pod["ssh"]["direct"]["port"]
    v2.post(f"/pods/{pod['id']}/action", json={"action": "restart"})
    with pytest.raises(ConnectionRefusedError):
        _connect(port)
    sim.admin.wait_pod(pod["id"], "RUNNING", listening=True)
    assert v2.get(f"/pods/{pod['id']}").json()["ssh"]["direct"]["port"] == port


def test_oob_stop_closes_the_port(sim, v2, running_pod):
    _set_default(sim, "banner")
    pod = running_pod()
    sim.admin.stop_pod(pod["id"])
    with pytest.raises(ConnectionRefusedError):
        _connect(pod["ssh"]["direct"]["port"])


@pytest.fixture(scope="module")
def client_key():
    return asyncssh.generate_private_key("ssh-ed25519")


def _ssh_run(port: int, key, command: str, username: str = "root"):
    async def go():
        async with asyncssh.connect(
            "127.0.0.1", port, username=username, client_keys=[key], known_hosts=None, connect_timeout=5
        ) as conn:
            return await conn.run(command, check=False)

    return asyncio.run(go())


def test_sshd_accepts_the_create_time_key_and_runs_commands(sim, running_pod, client_key):
    public = client_key.export_public_key().decode().strip()
    pod = running_pod(gpu={"id": "NVIDIA A40", "count": 2}, env={"PUBLIC_KEY": public, "GREETING": "hi"})
    port = pod["ssh"]["direct"]["port"]
    result = _ssh_run(port, client_key, 'echo "$RUNPOD_POD_ID|$GREETING|$HOME"; nvidia-smi -L; exit 3')
    lines = result.stdout.splitlines()
    assert result.exit_status == 3
    assert lines[0].split("|")[:2] == [pod["id"], "hi"]
    assert lines[0].split("|")[2] == sim.admin.pod(pod["id"])["home"]
    assert lines[1:] == [f"GPU {i}: NVIDIA A40 (UUID: GPU-00000000-0000-0000-0000-00000000000{i})" for i in range(2)]


def test_a_command_over_ssh_sees_the_secrets_the_pod_booted_with(sim, v2, running_pod, client_key):
    # As RunPod resolves {{ RUNPOD_SECRET_<name> }} when the container boots: the value, not the placeholder, and a
    # rotated value only after the next boot.
    secret = v2.post("/account/secrets", json={"name": "hf_token", "value": "hf-value-1"}).json()
    env = {"PUBLIC_KEY": client_key.export_public_key().decode().strip(), "HF": "{{ RUNPOD_SECRET_hf_token }}",
           "PLAIN": "{{ not a secret }}"}
    pod = running_pod(env=env)
    assert _ssh_run(pod["ssh"]["direct"]["port"], client_key, 'echo "$HF|$PLAIN"').stdout == (
        "hf-value-1|{{ not a secret }}\n")
    v2.patch(f"/account/secrets/{secret['id']}", json={"value": "hf-value-2"})
    assert v2.post(f"/pods/{pod['id']}/action", json={"action": "restart"}).status_code == 200
    sim.admin.wait_pod(pod["id"], "RUNNING", listening=True)
    port = v2.get(f"/pods/{pod['id']}").json()["ssh"]["direct"]["port"]
    assert _ssh_run(port, client_key, 'echo "$HF"').stdout == "hf-value-2\n"


def test_sshd_rejects_other_keys(sim, running_pod, client_key):
    other = asyncssh.generate_private_key("ssh-ed25519")
    pod = running_pod(env={"PUBLIC_KEY": other.export_public_key().decode().strip()})
    with pytest.raises(asyncssh.PermissionDenied):
        _ssh_run(pod["ssh"]["direct"]["port"], client_key, "true")


def test_sshd_sftp_writes_into_the_pod_home(sim, running_pod, client_key):
    pod = running_pod(env={"PUBLIC_KEY": client_key.export_public_key().decode().strip()})

    async def go():
        async with asyncssh.connect(
            "127.0.0.1", pod["ssh"]["direct"]["port"], username="root", client_keys=[client_key], known_hosts=None
        ) as conn:
            async with conn.start_sftp_client() as sftp, sftp.open("note.txt", "w") as handle:
                await handle.write("from sftp")
            return (await conn.run("cat note.txt", check=True)).stdout

    assert asyncio.run(go()) == "from sftp"


def test_sshd_starts_only_when_a_key_reached_the_container(sim, v2, running_pod):
    """RunPod images start sshd from PUBLIC_KEY: without one, port 22 is mapped but every connect is refused."""
    pod = running_pod()  # no env, no startSsh
    assert "PUBLIC_KEY" not in pod["env"] and pod["ssh"]["direct"]["port"] > 0
    state = sim.admin.pod(pod["id"])
    assert state["ssh_behaviour"] == "refused" and state["listeners"]["22"]["listening"] is False
    with pytest.raises(ConnectionRefusedError):
        _connect(pod["ssh"]["direct"]["port"])
    # startSsh with no registered keys does nothing either (the document: "the flag does nothing").
    assert "PUBLIC_KEY" not in running_pod(startSsh=True)["env"]


def test_start_ssh_injects_account_keys_and_sshd_accepts_them(sim, v2, running_pod, client_key):
    public = client_key.export_public_key().decode().strip()
    other = asyncssh.generate_private_key("ssh-ed25519").export_public_key().decode().strip()
    assert v2.put("/account/ssh-keys", json={"keys": [other, public]}).json() == {"keys": [other, public]}
    assert v2.get("/account/ssh-keys").json() == {"keys": [other, public]}
    pod = running_pod(startSsh=True)
    assert pod["env"]["PUBLIC_KEY"] == f"{other}\n{public}"
    assert _ssh_run(pod["ssh"]["direct"]["port"], client_key, "echo ok").stdout == "ok\n"
    # Registered keys reach only pods created with startSsh, and a PUT never touches existing pods.
    assert "PUBLIC_KEY" not in running_pod(name="plain")["env"]
    assert v2.put("/account/ssh-keys", json={"keys": []}).json() == {"keys": []}
    assert v2.get(f"/pods/{pod['id']}").json()["env"]["PUBLIC_KEY"] == f"{other}\n{public}"


def test_template_start_ssh_defaults_to_true(sim, v2, running_pod, client_key):
    public = client_key.export_public_key().decode().strip()
    v2.put("/account/ssh-keys", json={"keys": [public]})
    template = v2.post("/templates", json={"name": "t", "image": "img", "ports": ["22/tcp"]}).json()
    assert template["startSsh"] is True
    pod = running_pod(templateId=template["id"], image=None, ports=None)
    assert pod["env"]["PUBLIC_KEY"] == public
    assert sim.admin.pod(pod["id"])["listeners"]["22"]["listening"] is True


def test_put_ssh_keys_is_validated_against_the_document(sim, v2):
    for body in ({"keys": ["not a key"]}, {"keys": "ssh-ed25519 AAAA"}, {}, {"keys": [], "extra": 1}):
        answer = v2.put("/account/ssh-keys", json=body)
        assert answer.status_code == 422, body
        assert answer.json()["detail"] == "Request validation failed."
    assert v2.get("/account/ssh-keys").json() == {"keys": []}


def test_an_image_with_its_own_sshd_listens_without_a_key(sim, running_pod):
    sim.admin.configure(own_sshd_images=["my/sshd-image:1"])
    pod = running_pod(image="my/sshd-image:1")
    with _connect(pod["ssh"]["direct"]["port"]) as sock:
        sock.settimeout(3)
        assert _read_exactly(sock, 4) == b"SSH-"


def _read_exactly(sock: socket.socket, count: int) -> bytes:
    data = b""
    while len(data) < count:
        piece = sock.recv(count - len(data))
        if not piece:
            break
        data += piece
    return data


def test_sshd_banner_arrives_late_and_in_two_pieces(sim, running_pod, client_key):
    sim.admin.configure(banner_delay=50)  # 0.5 s at the tests' time scale
    pod = running_pod(env={"PUBLIC_KEY": client_key.export_public_key().decode().strip()})
    with _connect(pod["ssh"]["direct"]["port"]) as sock:
        sock.settimeout(3)
        assert sock.recv(4) == b"SSH"  # a probe that reads once sees no banner
        sock.settimeout(0.2)
        with pytest.raises(TimeoutError):
            sock.recv(1)
        sock.settimeout(3)
        assert _read_exactly(sock, 5) == b"-2.0-"
    assert _ssh_run(pod["ssh"]["direct"]["port"], client_key, "echo ok").stdout == "ok\n"

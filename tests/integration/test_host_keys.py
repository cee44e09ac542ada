# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""runpod.cloud.pod's host key check and ``wait_for: login`` against the simulator's real sshd (issue 44).

Each pod's sshd prints its host key fingerprints into the container log as RunPod's start script does, or none, or
another key's, or only its start (``ssh_host_key_log``), and lets in the created key, nobody, or nobody as root
(``ssh_login``). One playbook covers every case, for one pod's wait and for the batch waits (a fleet, ``pod_info``
over several pods); it runs once on the controller (the action plugin's wait) and once in the module.
"""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

import pytest
from helpers.playbooks import module_task, play, pod_task
from helpers.simulated import ACCOUNT_SSH_KEY, fresh_account

pytestmark = pytest.mark.core

GPU = "NVIDIA GeForce RTX 4090"
TASKS = ("verified", "mismatch", "strict", "pinned", "pinned started", "refused", "fleet", "batch mismatch",
         "batch strict", "batch log")
# What each task ends with (its code, and each pod's host_key_check), the same on both wait paths.
OUTCOMES = {
    "verified": (None, ["verified"]), "mismatch": ("host_key_mismatch", [None]),
    "strict": ("host_key_unverified", [None]), "pinned": (None, ["pinned"]), "pinned started": (None, ["pinned"]),
    "refused": ("login_refused", [None]),
    "fleet": (None, ["verified", "verified"]), "batch mismatch": ("host_key_mismatch", [None, None]),
    "batch strict": ("host_key_unverified", [None, None, None]), "batch log": (None, ["pinned", "pinned", "verified"]),
}
BATCH = {"wait": True, "wait_interval": "200ms", "wait_timeout": "60s"}


def _args(name, public_key, **extra):
    args = {"name": name, "image": "runpod/base:1.0", "gpu_type_ids": [GPU], "wait": True,
            "wait_interval": "200ms", "wait_timeout": "60s", "ssh_public_key": public_key}
    args.update(extra)
    return args


def _playbook(key, public_key):
    login = {"wait_for": "login", "ssh_private_key_file": str(key)}
    return play(
        pod_task("verified", _args("good", public_key, host_key_checking="strict", **login)),
        pod_task("mismatch", _args("liar", public_key, **login), ignore_errors=True),
        # strict waits for fingerprints that never come: its wait ends unverified.
        pod_task("strict", _args("quiet", public_key, host_key_checking="strict", wait_timeout="5s"),
                 ignore_errors=True),
        pod_task("pinned", _args("quiet", public_key)),
        # An image whose own script starts sshd and goes on without fingerprints: the history decides at once.
        pod_task("pinned started", _args("bare", public_key)),
        pod_task("refused", _args("locked", public_key, **login), ignore_errors=True),
        pod_task("fleet", _args("crew", public_key, count=2, host_key_checking="strict")),
        # The batch waits of pod_info, per pod (newest first): a wrong key on one pod ends the wait naming it; strict
        # names each pod whose log shows no fingerprints (none printed, or only sshd's start); log verifies one and
        # pins the others.
        module_task("pod_info", "batch mismatch", dict(BATCH, names=["good", "liar"]), ignore_errors=True),
        module_task("pod_info", "batch strict",
                    dict(BATCH, names=["good", "quiet", "bare"], wait_timeout="3s", host_key_checking="strict"),
                    ignore_errors=True),
        module_task("pod_info", "batch log", dict(BATCH, names=["good", "quiet", "bare"])),
    )


def _configure(sim):
    sim.admin.configure(name_overrides={"liar": {"ssh_host_key_log": "wrong"}, "quiet": {"ssh_host_key_log": "none"},
                                        "bare": {"ssh_host_key_log": "started"}, "locked": {"ssh_login": "no_key"}})


@pytest.fixture
def key(tmp_path):
    path = tmp_path / "id_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(path)], check=True)
    return path


def _trusted(ssh):
    """``ssh.ssh_args`` trusts exactly the checked keys: strictly, from the pod's own known_hosts file."""
    words = shlex.split(ssh["ssh_args"])
    assert words[:3] == ["-o", "StrictHostKeyChecking=yes", "-o"] and words[3].startswith("UserKnownHostsFile="), words
    path = Path(words[3].split("=", 1)[1])
    assert path.name.startswith("known_hosts_") and sorted(path.read_text().splitlines()) == sorted(ssh["host_keys"])
    return path


def _check(sim, result):
    tasks = {name: result.task_result(name) for name in TASKS}

    verified = tasks["verified"]
    pod_id = verified["pod"]["id"]
    state = sim.admin.pod(pod_id)
    ssh = verified["pod"]["ssh"]
    assert verified.get("failed") is not True, verified
    assert ssh["host_key_check"] == "verified"
    assert sorted(ssh["host_key_fingerprints"]) == sorted(state["host_key_fingerprints"])
    port = ssh["port"]
    assert sorted(line.split(" ", 1)[1] for line in ssh["host_keys"]) == sorted(state["host_keys"])
    assert all(line.startswith(f"[127.0.0.1]:{port} ") for line in ssh["host_keys"])
    assert verified["wait"]["ready_detail"] == f"logged in at 127.0.0.1:{port}, host key verified"
    assert _trusted(ssh).name == f"known_hosts_{pod_id}"

    mismatch = tasks["mismatch"]
    liar = mismatch["pod"]["id"]
    assert mismatch["failed"] is True and mismatch["code"] == "host_key_mismatch"
    assert liar in mismatch["msg"] and "The pod was kept" in mismatch["msg"]
    # Both sides' fingerprints: what the pod presented and what its log showed.
    assert all(fingerprint in mismatch["msg"] for fingerprint in sim.admin.pod(liar)["host_key_fingerprints"])
    assert mismatch["msg"].count("SHA256:") >= 4
    assert sim.admin.pod(liar)["status"] == "RUNNING"
    assert (mismatch["pod"]["ssh"] or {}).get("ssh_args") is None  # no key checked: nothing trusted

    strict = tasks["strict"]
    assert strict["failed"] is True and strict["code"] == "host_key_unverified", strict["msg"]
    assert "shows no host key fingerprints" in strict["msg"] and strict["pod"]["id"] in strict["msg"]
    presented = sim.admin.pod(strict["pod"]["id"])["host_key_fingerprints"]
    assert all(fingerprint in strict["msg"] for fingerprint in presented)

    pinned = tasks["pinned"]
    assert pinned.get("failed") is not True and pinned["changed"] is False  # the same pod, found by name
    assert pinned["pod"]["ssh"]["host_key_check"] == "pinned" and pinned["pod"]["ssh"]["host_keys"]
    assert any("pinned without verification" in warning for warning in pinned["warnings"])
    _trusted(pinned["pod"]["ssh"])

    started = tasks["pinned started"]
    bare = started["pod"]["id"]
    assert started.get("failed") is not True and started["pod"]["ssh"]["host_key_check"] == "pinned", started
    presented = sim.admin.pod(bare)["host_key_fingerprints"]
    assert sorted(started["pod"]["ssh"]["host_key_fingerprints"]) == sorted(presented)
    assert [w for w in started["warnings"] if f"pod {bare} " in w and "shows no host key fingerprints" in w
            and "pinned without verification" in w and all(fingerprint in w for fingerprint in presented)]
    _trusted(started["pod"]["ssh"])

    refused = tasks["refused"]
    assert refused["failed"] is True and refused["code"] == "login_refused", refused["msg"]
    assert "refused the login as root" in refused["msg"]
    assert refused["wait"]["elapsed"] < 30  # at once, not at the end of the 60 s wait
    assert "logs" in refused and refused["logs"]["container"]  # the container log lines, as every failed wait

    fleet = tasks["fleet"]
    assert fleet.get("failed") is not True, fleet.get("msg")
    for member in fleet["pods"]:
        assert member["ssh"]["host_key_check"] == "verified"
        presented = sim.admin.pod(member["id"])["host_key_fingerprints"]
        assert sorted(member["ssh"]["host_key_fingerprints"]) == sorted(presented)
        assert _trusted(member["ssh"]).name == f"known_hosts_{member['id']}"

    good = pod_id
    batch = tasks["batch mismatch"]
    assert batch["failed"] is True and batch["code"] == "host_key_mismatch", batch["msg"]
    assert batch["msg"].startswith("Waiting for ssh on 2 pods: ") and f"pod {liar} at 127.0.0.1:" in batch["msg"]
    assert all(fingerprint in batch["msg"] for fingerprint in sim.admin.pod(liar)["host_key_fingerprints"])
    assert "Nothing was deleted" in batch["msg"] and liar in [entry["id"] for entry in batch["not_ready"]]
    assert batch["wait"]["elapsed"] < 30  # at once
    assert sim.admin.pod(liar)["status"] == "RUNNING"

    quiet = pinned["pod"]["id"]
    unverified = tasks["batch strict"]
    assert unverified["failed"] is True and unverified["code"] == "host_key_unverified", unverified["msg"]
    for pod in (quiet, bare):  # each named with its keys: the log was read, and shows no fingerprints
        said = next(sentence for sentence in unverified["msg"].split("The pod was kept.") if f"pod {pod} " in sentence)
        assert "shows no host key fingerprints, so nothing verifies it" in said
        assert all(fingerprint in said for fingerprint in sim.admin.pod(pod)["host_key_fingerprints"])
    assert sorted(entry["id"] for entry in unverified["not_ready"]) == sorted([quiet, bare])

    logged = {pod["id"]: pod["ssh"] for pod in tasks["batch log"]["pods"]}
    assert logged[good]["host_key_check"] == "verified"
    assert logged[quiet]["host_key_check"] == logged[bare]["host_key_check"] == "pinned"
    assert all(ssh["host_keys"] for ssh in logged.values())
    assert {_trusted(ssh).name for ssh in logged.values()} == {f"known_hosts_{pod_id}" for pod_id in logged}
    assert all([w for w in tasks["batch log"]["warnings"] if "pinned without verification" in w and pod in w]
               for pod in (quiet, bare))

    # Nothing is ever deleted or stopped by a failed check.
    assert sim.admin.count("DELETE") == 0
    assert sim.admin.count("POST", r"/pods/[^/]+/(action|stop|terminate)") == 0
    return {name: (task.get("code"), _checks(task)) for name, task in tasks.items()}


def _checks(task):
    pods = task["pods"] if "pods" in task else [task["pod"]]
    return [((pod or {}).get("ssh") or {}).get("host_key_check") for pod in pods]


@pytest.mark.parametrize("path", ["controller", "module"])
def test_host_keys_and_login_on_both_paths(sim, run_playbook, tmp_path, key, path):
    # The two wait paths run as two tests (on two workers), each against the same table of outcomes.
    public_key = key.with_suffix(".pub").read_text().strip()
    fresh_account(sim)
    sim.admin.clear_requests()
    _configure(sim)
    env = {} if path == "controller" else {"RUNPOD_CLOUD_CONTROLLER_WAIT": "false"}
    result = run_playbook(tmp_path, _playbook(key, public_key), env=env)
    if path == "controller":
        assert "ssh reachable" not in result.stderr
    assert _check(sim, result) == OUTCOMES


def test_login_without_a_private_key_is_refused_before_any_call(sim, run_playbook, tmp_path):
    result = run_playbook(tmp_path, play(pod_task("login", _args("nokey", ACCOUNT_SSH_KEY, wait_for="login"),
                                                  ignore_errors=True)))
    failed = result.task_result("login")
    assert failed["failed"] is True and failed["code"] == "bad_request"
    assert "ssh_private_key_file" in failed["msg"]
    assert sim.admin.requests() == []

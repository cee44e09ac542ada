# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Docs that run: every example a user reads (tests/helpers/doc_examples.py finds them) runs against the simulator
as written, one ``ansible-playbook`` run per place (a module's EXAMPLES, a role's README, a page), so pytest-xdist
spreads them. A failed example is a failed test.

What a user brings is filled in, never the example itself: ``RUNPOD_*`` from the simulator, a home directory with
``~/.ssh/id_ed25519`` (its public key also on the account), the ``vault_*`` and other variables the examples name
(``PLACEHOLDERS``), and, where an example works on something the reader already has (an endpoint called ``sdxl``,
a pod id), the tasks that make it (``GIVEN``) and the ids it names (``SAME_AS``). SSH checks host keys as a fresh
controller does: Ansible's host key checking on and an empty known_hosts."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import doc_examples
from helpers.paths import COLLECTIONS_ROOT, VENV_BIN
from helpers.playbooks import run_playbook
from helpers.simulated import ACCOUNT_SSH_KEY, register_account_keys

SOURCES = doc_examples.sources()
RUN = [s for s in SOURCES if s.runnable and s.kind not in ("inventory", "event_source")]

# Variables the examples take from the reader's vault or inventory.
PLACEHOLDERS: dict[str, Any] = {
    "vault_dockerhub_token": "dckr_pat_placeholder",
    "vault_dockerhub_new_token": "dckr_pat_placeholder_2",
    "vault_token": "placeholder-token",
    "vault_hf_token": "hf_placeholder",
    "vault_hf_token_new": "hf_placeholder_2",
    "vault_registry_token": "placeholder-registry-token",
    "git_sha": "3f2a9c1",
}

# What an example takes as already there, made first (task lists in front of the source's playbook).
_SDXL = {"name": "An endpoint called sdxl (a worker that answers with one image)",
         "runpod.cloud.endpoint": {"name": "sdxl", "image": "my-org/sdxl-worker:1.3.0", "workers_min": 1,
                                   "gpu_type_ids": ["NVIDIA GeForce RTX 4090"], "wait": True},
         "register": "given"}
_ONE_IMAGE = {"name": "Its jobs answer with one image",
              "ansible.builtin.uri": {"url": "{{ sim_admin }}/endpoints/{{ given.endpoint.id }}/jobs",
                                      "method": "POST", "body_format": "json",
                                      "body": {"output": "constant", "output_value": {"images": ["aGVsbG8="]}}}}
_BUILT = [{"name": "A GitHub build of it that completed",
           "ansible.builtin.uri": {"url": "{{ sim_admin }}/endpoints/{{ given.endpoint.id }}/builds",
                                   "method": "POST", "body_format": "json", "status_code": [200, 201],
                                   "body": {"commitHash": "3f2a9c1", "branch": "main"}},
           "register": "build"},
          {"name": "Completed",
           "ansible.builtin.uri": {"url": "{{ sim_admin }}/endpoints/{{ given.endpoint.id }}/builds/"
                                          "{{ build.json.id }}",
                                   "method": "POST", "body_format": "json", "body": {"status": "COMPLETED"}}}]
GIVEN: dict[str, list[dict[str, Any]]] = {
    "plugins/modules/endpoint_job.py": [_SDXL, _ONE_IMAGE],
    "docs/endpoints.md": [_SDXL, _ONE_IMAGE, *_BUILT],
    "plugins/modules/endpoint_info.py": [
        {"name": "An endpoint called hello with a ready worker",
         "runpod.cloud.endpoint": {"name": "hello", "image": "runpod/serverless-hello-world:latest", "workers_min": 1,
                                   "gpu_type_ids": ["NVIDIA GeForce RTX 4090"], "wait": True}}],
    "plugins/modules/pod_info.py": [
        {"name": "A pod", "register": "given",
         "runpod.cloud.pod": {"name": "given", "image": "ubuntu:24.04", "gpu_type_ids": ["NVIDIA GeForce RTX 4090"]}},
        {"name": "Its id", "ansible.builtin.set_fact": {"pod_id": "{{ given.pod.id }}"}}],
}

# Ids an example names literally, read as the id of a resource GIVEN made: {literal: Jinja expression}.
SAME_AS: dict[str, dict[str, str]] = {
    "plugins/modules/endpoint_job.py": {"a1b2c3d4e5f6g7": "'{{ given.endpoint.id }}'"},
}


def _home(tmp_path: Path) -> tuple[Path, str]:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    key = home / ".ssh" / "id_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "reader", "-f", str(key)], check=True)
    return home, key.with_suffix(".pub").read_text().strip()


def _env(sim, tmp_path: Path, home: Path) -> dict[str, str | None]:
    # ssh reads ~ from the password database, not HOME: its known_hosts comes from a config of ours (an option
    # on the command line, such as a hand-off's UserKnownHostsFile, still wins over it).
    config = tmp_path / "ssh_config"
    config.write_text(f"UserKnownHostsFile {home / '.ssh' / 'known_hosts'}\n")
    return {
        "HOME": str(home),
        "ANSIBLE_HOST_KEY_CHECKING": "True",
        "ANSIBLE_SSH_ARGS": f"-F {config} -o ControlMaster=auto -o ControlPersist=30s",
        "ANSIBLE_PRIVATE_KEY_FILE": str(home / ".ssh" / "id_ed25519"),
        "RUNPOD_TRAINER_KEY": sim.api_key,
    }


def _variables(sim, tmp_path: Path, public_key: str) -> Path:
    variables = {**PLACEHOLDERS, "vault_runpod_api_key": sim.api_key, "team_public_keys": [ACCOUNT_SSH_KEY, public_key],
                 "sim_admin": sim.urls["admin"]}
    path = tmp_path / "placeholders.yml"
    path.write_text(yaml.safe_dump(variables))
    return path


def _text(source: doc_examples.Source) -> str:
    plays = doc_examples.playbook(source)
    given = GIVEN.get(source.path)
    if given:
        plays.insert(0, {"name": f"what {source.path} takes as given", "hosts": "localhost", "gather_facts": False,
                         "tasks": given})
    text = yaml.safe_dump(plays, sort_keys=False, width=1000)
    for literal, expression in SAME_AS.get(source.path, {}).items():
        text = text.replace(literal, expression)
    return text


@pytest.mark.parametrize("source", RUN, ids=[s.path for s in RUN])
def test_the_examples_run_as_written(sim, tmp_path, source):
    home, public_key = _home(tmp_path)
    register_account_keys(sim, [ACCOUNT_SSH_KEY, public_key])
    variables = _variables(sim, tmp_path, public_key)
    result = run_playbook(sim, tmp_path, _text(source), env=_env(sim, tmp_path, home),
                          extra_args=("-e", f"@{variables}"))
    assert result.rc == 0, f"{source.path}: {result.stdout[-6000:]}\n{result.stderr[-3000:]}"
    failed = [t["task"]["name"] for t in result.tasks() for r in t["hosts"].values() if r.get("failed")]
    assert not failed, failed


def test_the_inventory_examples_parse_and_find_the_pods(sim, tmp_path):
    (source,) = [s for s in SOURCES if s.kind == "inventory"]
    home, public_key = _home(tmp_path)
    register_account_keys(sim, [ACCOUNT_SSH_KEY, public_key])
    names = [sim.admin.pod(pod_id)["name"] for pod_id in sim.admin.seed(2, name_prefix="trainer")]
    arguments = []
    for index, block in enumerate(source.runnable):
        path = tmp_path / f"example{index}.runpod.yml"
        path.write_text(block.text)
        arguments += ["-i", str(path)]
    env = {**os.environ, **sim.env(), **_env(sim, tmp_path, home), "ANSIBLE_INVENTORY_ANY_UNPARSED_IS_FAILED": "True"}

    def inventory(environment):
        return subprocess.run([str(VENV_BIN / "ansible-inventory"), *arguments, "--list"], env=environment,
                              cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False)

    listed = inventory(env)
    assert listed.returncode == 0, listed.stderr
    assert set(names) <= set(json.loads(listed.stdout)["_meta"]["hostvars"]), listed.stdout
    # What the plugin's notes promise: with ANSIBLE_INVENTORY_ANY_UNPARSED_IS_FAILED a wrong key fails the run.
    refused = inventory({**env, "RUNPOD_API_KEY": "wrong-key", "RUNPOD_TRAINER_KEY": "wrong-key"})
    assert refused.returncode != 0 and "runpod.yml" in refused.stderr, refused.stderr
    assert "wrong-key" not in refused.stdout + refused.stderr


def test_the_rulebook_examples_run(sim, tmp_path):
    """The EDA source's EXAMPLES, one rulebook file, run by ansible-rulebook: the second ruleset prints the initial
    event of a pod (``emit_initial``) while the first one watches. Neither ends by itself (no ``run_time``, and
    ``1h``), so the run is stopped once the event is printed."""
    (source,) = [s for s in SOURCES if s.kind == "event_source"]
    (block,) = source.runnable
    (tmp_path / "rulebook.yml").write_text(block.text)
    (tmp_path / "inventory.yml").write_text("all:\n  hosts:\n    localhost:\n      ansible_connection: local\n")
    (pod_id,) = sim.admin.seed(1, name_prefix="train", ports=["22/tcp"])
    env = {**os.environ, **sim.env(), "ANSIBLE_COLLECTIONS_PATH": str(COLLECTIONS_ROOT), "ANSIBLE_NOCOLOR": "1",
           "PATH": f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    output = tmp_path / "output.txt"
    with open(output, "w") as sink:
        process = subprocess.Popen([str(VENV_BIN / "ansible-rulebook"), "-r", str(tmp_path / "rulebook.yml"),
                                    "-i", str(tmp_path / "inventory.yml")], cwd=tmp_path, env=env, stdout=sink,
                                   stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 90
        while pod_id not in output.read_text() and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)  # polls for an event (the printed line), with a deadline
        assert process.poll() is None, output.read_text()
        assert pod_id in output.read_text() and "status_changed" not in output.read_text(), output.read_text()
    finally:
        process.kill()
        process.wait()
    # Both rulesets read the account (the first one's baseline, the second one's initial events).
    assert sim.admin.count("GET", r"^/v2/pods$") >= 2

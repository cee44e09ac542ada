# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Docs that run: every example a user reads (tests/helpers/doc_examples.py finds them) runs against the simulator
as written. The places (a module's EXAMPLES, a role's README, a page) are dealt into a few groups of about the same
measured cost (``COST``), one test and one ``ansible-playbook`` run per group, so pytest-xdist spreads them and a
run's start is paid once a group. In the run each place's plays come after a play of ours (``== source: <path>``)
that gives it what a run of its own gave it: a reset simulator (nothing an earlier place made, whose names often
collide), the account's SSH keys registered again, a fresh controller (a home with only the reader's key pair, so no
known_hosts and no key pair an earlier place's role made, the working directory as the run began, no SSH master
connection to an earlier pod). A run cannot forget the hosts it added, so a place that adds hosts runs last in its
group, one a group; nor the variables a place set on localhost, which only an example that reads what it never set
would notice (a reader's run would fail on it). Each place is judged from its own part of the report: a failed task
fails the test with the place named; a place that stops the run is named and the places after it run again in a run
of their own, so one broken example hides no other.

What a user brings is filled in, never the example itself: ``RUNPOD_*`` from the simulator, a home directory with
``~/.ssh/id_ed25519`` (its public key also on the account), the ``vault_*`` and other variables the examples name
(``PLACEHOLDERS``), and, where an example works on something the reader already has (an endpoint called ``sdxl``,
a pod id), the tasks that make it (``GIVEN``) and the ids it names (``SAME_AS``). SSH checks host keys as a fresh
controller does: Ansible's host key checking on and an empty known_hosts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
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


# Seconds each place takes in a group's run (its plays and the plays in front of them; on 2026-12-05, the mean of the
# time it took in a run of its own less that run's start, and of the time it took in a group's run alone on a loaded
# machine): what the groups are balanced on. A place not listed counts as DEFAULT_COST.
COST: dict[str, float] = {
    "roles/hosts": 17.5, "plugins/modules/pod.py": 16.5, "plugins/modules/pod_info.py": 15, "docs/demo.md": 12.5,
    "docs/docsite/rst/guide_batch_provisioning.rst": 11.5, "docs/endpoints.md": 8.5, "docs/clusters.md": 8,
    "docs/docsite/rst/guide_account.rst": 8, "plugins/modules/endpoint.py": 7, "docs/pods.md": 6.5,
    "plugins/modules/endpoint_job.py": 6.5, "plugins/modules/container_registry.py": 5.5, "README.md": 5,
    "plugins/modules/network_volume.py": 5, "plugins/modules/cluster.py": 4.5, "docs/gpu-capacity.md": 4,
    "docs/docsite/rst/guide_clusters.rst": 4, "plugins/modules/secret.py": 3.5, "docs/secrets.md": 3,
    "plugins/modules/endpoint_info.py": 3, "plugins/modules/gpu_type_info.py": 2.5, "plugins/modules/ssh_key.py": 2.5,
    "plugins/modules/cluster_info.py": 2, "plugins/modules/template.py": 1.5, "plugins/modules/secret_info.py": 1.5,
    "docs/costs.md": 1.5, "docs/docsite/rst/guide_authentication.rst": 1.5, "plugins/modules/billing_info.py": 1,
    "plugins/modules/network_volume_info.py": 1, "docs/docsite/rst/guide_input_checks.rst": 1,
}
DEFAULT_COST = 5.0
GROUP_COUNT = 6  # at least; more when more places add hosts
# A run cannot forget a host it added (meta: refresh_inventory adds the run's add_host hosts again), and the places'
# host and group names repeat (trainer-1, trainers): a place that adds hosts runs last in its group, one a group.
ADDS_HOSTS = ("add_host", "group_by", "runpod.cloud.hosts")  # the hosts role adds them with add_host


def _adds_hosts(source: doc_examples.Source) -> bool:
    return any(word in _text(source) for word in ADDS_HOSTS)


def _groups(sources: list[doc_examples.Source]) -> list[list[doc_examples.Source]]:
    """The places dealt into groups of about the same cost: first the places that add hosts, one a group, then the
    rest, the costliest first, each to the cheapest group so far (the first of equals). In a group the places keep
    their own order, but the one that adds hosts runs last."""
    def cost(source: doc_examples.Source) -> float:
        return COST.get(source.path, DEFAULT_COST)

    adding = sorted((s for s in sources if _adds_hosts(s)), key=lambda s: (-cost(s), s.path))
    groups: list[list[doc_examples.Source]] = [[source] for source in adding]
    groups += [[] for _index in range(GROUP_COUNT - len(groups))]
    totals = [sum(cost(s) for s in group) for group in groups]
    for source in sorted((s for s in sources if not _adds_hosts(s)), key=lambda s: (-cost(s), s.path)):
        index = totals.index(min(totals))
        groups[index].append(source)
        totals[index] += cost(source)
    order = {source.path: index for index, source in enumerate(sources)}
    return [sorted(group, key=lambda s: (_adds_hosts(s), order[s.path])) for group in groups]


GROUPS = _groups(RUN)
MARK = "== source: "
FRESH_TASK = "Reset the simulator and the account's keys, empty the home, close the SSH masters"

# Run by the play in front of each place, as a pipe lookup (no module to start): it prints what the place before it
# left in the contract log (the reset forgets it), resets the simulator, registers the account's keys again (the reset
# forgets them too), closes the SSH master connections (ControlPersist keeps them 30 s, and a pod of this place may get
# the port and so the ControlPath of an earlier pod) and leaves the home with the reader's key pair only and the
# working directory as it was when the run's first place began (what a place wrote, such as ./hostfile, goes).
FRESH = r"""
import json, os, shutil, stat, subprocess, sys, urllib.request

setting = json.loads(open(sys.argv[1]).read())


def call(method, url, body=None, headers=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data, {"Content-Type": "application/json", **(headers or {})}, method=method)
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or "null")


def sweep(directory, keep, prefix=""):
    for entry in os.scandir(directory):
        name = prefix + entry.name
        if name in keep:
            continue
        if entry.is_dir(follow_symlinks=False) and any(kept.startswith(name + "/") for kept in keep):
            sweep(entry.path, keep, name + "/")
        elif entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path)
        else:
            os.unlink(entry.path)


violations = call("GET", setting["admin"] + "/contract")["violations"]
call("POST", setting["admin"] + "/reset")
call("PUT", setting["api_v2"] + "/account/ssh-keys", {"keys": setting["keys"]},
     {"Authorization": "Bearer " + setting["api_key"]})
control = os.environ["ANSIBLE_SSH_CONTROL_PATH_DIR"]
for name in os.listdir(control):
    path = os.path.join(control, name)
    if stat.S_ISSOCK(os.lstat(path).st_mode):
        subprocess.run(["ssh", "-F", os.devnull, "-o", "ControlPath=" + path, "-O", "exit", "pod"],
                       capture_output=True, check=False)
sweep(setting["home"], set(setting["home_keeps"]))
if not os.path.exists(setting["snapshot"]):
    with open(setting["snapshot"], "w") as snapshot:
        json.dump(os.listdir(setting["cwd"]), snapshot)
with open(setting["snapshot"]) as snapshot:
    sweep(setting["cwd"], set(json.load(snapshot)))
print(json.dumps({"violations": violations}))
"""


def _fresh(sim, tmp_path: Path, public_key: str) -> str:
    """The command the plays in front of each place run (FRESH with this test's settings)."""
    script, settings = tmp_path / "fresh.py", tmp_path / "fresh.json"
    script.write_text(FRESH)
    settings.write_text(json.dumps({
        "admin": sim.urls["admin"], "api_v2": sim.urls["api_v2"], "api_key": sim.api_key,
        "keys": [ACCOUNT_SSH_KEY, public_key], "home": str(tmp_path / "home"),
        "home_keeps": [".ssh/id_ed25519", ".ssh/id_ed25519.pub", ".ansible"], "cwd": str(tmp_path),
        "snapshot": str(tmp_path / "fresh-snapshot.json")}))
    return f"{sys.executable} -I -S {script} {settings}"


def _in_front(source: doc_examples.Source, command: str) -> str:
    """The play in front of ``source``'s: its name marks where the place's part of the report begins."""
    return yaml.safe_dump([{
        "name": f"{MARK}{source.path}", "hosts": "localhost", "gather_facts": False, "vars": {"fresh_command": command},
        "tasks": [{"name": FRESH_TASK, "ansible.builtin.debug": {
            "msg": "{{ lookup('ansible.builtin.pipe', fresh_command) | from_json }}"}}]}], sort_keys=False, width=1000)


def _parts(result, batch: list[doc_examples.Source]) -> dict[str, list[dict[str, Any]]]:
    """The report's plays by place of ``batch`` (the places that began, in the order they ran)."""
    parts: dict[str, list[dict[str, Any]]] = {}
    for play in (result.report or {}).get("plays", []):
        name = play["play"]["name"]
        if name.startswith(MARK) and name[len(MARK):] in [s.path for s in batch]:
            parts[name[len(MARK):]] = []
        if parts:
            parts[next(reversed(parts))].append(play)
    return parts


@pytest.mark.parametrize("group", GROUPS, ids=[f"group{index + 1}" for index in range(len(GROUPS))])
def test_the_examples_run_as_written(sim, tmp_path, group):
    """The places of one group in one run, each after the plays that give it a fresh simulator and controller. A
    place that stops the run is named, and the places after it run again without it: one broken place hides none."""
    home, public_key = _home(tmp_path)
    variables = _variables(sim, tmp_path, public_key)
    command = _fresh(sim, tmp_path, public_key)
    ran: list[str] = []
    stopped: dict[str, str] = {}  # place -> how its run ended (rc and output) when it did not end well
    failed: dict[str, list[str]] = {}  # place -> its tasks that failed or found a host unreachable
    violations: dict[str, list[str]] = {}  # place -> responses served to it that the OpenAPI document does not allow
    remaining, alone = list(group), False
    while remaining:
        batch = remaining[:1] if alone else remaining
        result = run_playbook(sim, tmp_path, "".join(_in_front(s, command) + _text(s) for s in batch),
                              env=_env(sim, tmp_path, home), extra_args=("-e", f"@{variables}"))
        parts = _parts(result, batch)
        if not parts:
            # The playbook did not load (a place's YAML, a module ansible cannot find): a run alone tells whose.
            if len(batch) == 1:
                stopped[batch[0].path] = f"rc={result.rc}, its plays did not load: {result.stderr[-3000:]}"
                remaining, alone = remaining[1:], False
            else:
                alone = True
            continue
        for path, plays in parts.items():
            tasks = [task for play in plays for task in play["tasks"]]
            # What the place before it left, read by the plays in front of it before their reset.
            fresh = [task["hosts"].get("localhost", {}).get("msg") for task in tasks
                     if task["task"]["name"] == FRESH_TASK]
            if fresh and isinstance(fresh[0], dict):
                violations[ran[-1] if ran else "(before the first place)"] = fresh[0]["violations"]
            failed[path] = [task["task"]["name"] for task in tasks for r in task["hosts"].values()
                            if r.get("failed") or r.get("unreachable")]
            ran.append(path)
        if result.rc != 0:
            for path in [path for path in parts if failed[path]] or [ran[-1]]:
                # Its failed results when it has any (the report's tail otherwise), then ansible's stderr.
                said = [r for play in parts[path] for task in play["tasks"] for r in task["hosts"].values()
                        if r.get("failed") or r.get("unreachable")]
                shown = json.dumps(said, indent=1)[-6000:] if said else result.stdout[-6000:]
                stopped[path] = f"rc={result.rc}: {shown}\n{result.stderr[-3000:]}"
        remaining = [s for s in remaining if s.path not in parts]
    if ran:
        violations[ran[-1]] = sim.admin.contract_violations()
    names = [s.path for s in group]
    assert not stopped, "\n\n".join(f"{path} (group {names}) failed its run, {why}" for path, why in stopped.items())
    assert not {path: tasks for path, tasks in failed.items() if tasks}, failed
    assert sorted(ran) == sorted(names), f"places that did not run: {sorted(set(names) - set(ran))}"
    assert not {path: found for path, found in violations.items() if found}, violations


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

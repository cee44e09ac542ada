# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""AWX / Automation Platform: a playbook through ansible-runner, the API key passed as an extra env var.

It runs ``playbooks/demo.yml`` (the README's main job) when it exists, else a small ``pod_info`` play, from
a private data dir against the local simulator, which accepts only a random key: the play succeeding proves
the key reached the modules. The key must then be absent from every artifact (stdout, job events, status,
fact cache, ...). ansible-runner itself records its launch environment in ``artifacts/<ident>/command``
(``{"command", "cwd", "env"}``; runner has no option to omit it, AWX keeps that directory private): there,
and only as the value of ``env.RUNPOD_API_KEY``, it is tolerated; anywhere else in that file it is not.
"""

from __future__ import annotations

import json
import secrets
import shutil
import sys
import tempfile
from pathlib import Path

import ansible_runner
from conftest import REPO_ROOT, VENV_BIN
from helpers.paths import COLLECTIONS_ROOT
from helpers.playbooks import DEPRECATION, harness_env

DEMO = REPO_ROOT / "playbooks" / "demo.yml"
OWN_PLAYBOOK = Path(__file__).resolve().parent / "playbooks" / "runner_pod_info.yml"


def _project(private: Path) -> str:
    project = private / "project"
    if DEMO.exists():
        shutil.copytree(DEMO.parent, project)
        return DEMO.name
    project.mkdir()
    shutil.copy2(OWN_PLAYBOOK, project / OWN_PLAYBOOK.name)
    return OWN_PLAYBOOK.name


def test_runner_job_keeps_the_api_key_out_of_artifacts(sim, tmp_path: Path) -> None:
    key = sim.api_key
    if not DEMO.exists():
        sim.admin.seed(2)
    private = tmp_path / "private"
    private.mkdir()
    playbook = _project(private)
    (private / "inventory").mkdir()
    (private / "inventory" / "hosts").write_text(
        f"localhost ansible_connection=local ansible_python_interpreter={sys.executable}\n"
    )
    marker = f"marker-{secrets.token_hex(8)}"
    home = tmp_path / "home"
    home.mkdir()
    envvars = {
        **sim.env(),  # RUNPOD_API_KEY (the secret), RUNPOD_API_URL, ...
        "ECOSYSTEM_MARKER": marker,
        "ANSIBLE_COLLECTIONS_PATH": str(COLLECTIONS_ROOT),
        "ANSIBLE_HOST_KEY_CHECKING": "False",
        "ANSIBLE_PYTHON_INTERPRETER": "auto_silent",
        "HOME": str(home),
        # ssh's control sockets must keep under the unix socket path limit; HOME under a pytest-xdist tmp_path does not.
        "ANSIBLE_SSH_CONTROL_PATH_DIR": tempfile.mkdtemp(prefix="rpcp_"),
        "PATH": f"{VENV_BIN}:/usr/local/bin:/usr/bin:/bin",
        **harness_env(),
    }
    result = ansible_runner.run(
        private_data_dir=str(private),
        playbook=playbook,
        envvars=envvars,
        verbosity=3,
        suppress_env_files=True,  # as AWX does: no env/envvars file with the key in the private data dir
        quiet=True,
        timeout=600,
    )
    stdout = result.stdout.read()
    assert result.status == "successful" and result.rc == 0, stdout[-6000:]
    assert DEPRECATION not in stdout, stdout[-6000:]
    assert sim.admin.count() > 0, "the play never reached the simulator"

    # The job really ran the collection's modules (the events are AWX's view of the job).
    actions = {e["event_data"].get("resolved_action") for e in result.events if e["event"] == "runner_on_ok"}
    assert any(a and a.startswith("runpod.cloud.") for a in actions), actions

    artifact_dir = Path(result.config.artifact_dir)
    files = [p for p in artifact_dir.rglob("*") if p.is_file()]
    names = {p.relative_to(artifact_dir).parts[0] for p in files}
    assert {"stdout", "job_events", "command", "status", "rc"} <= names, names
    assert list((artifact_dir / "job_events").glob("*.json")), "no job events were written"

    # Positive control: a value passed the same way and printed by the play is found by this scan.
    printed = sim.urls["api_v2"] if DEMO.exists() else marker
    assert any(printed in p.read_text(errors="replace") for p in files if p.name != "command")

    leaks = []
    for path in files:
        text = path.read_text(errors="replace")
        if path.name == "command" and path.parent == artifact_dir:
            launch = json.loads(text)
            assert launch["env"].get("RUNPOD_API_KEY") == key  # runner's own launch record
            launch["env"]["RUNPOD_API_KEY"] = "<runner launch env>"
            text = json.dumps(launch)
        if key in text:
            leaks.append(str(path.relative_to(private)))
    assert not leaks, f"API key found in runner artifacts: {leaks}"
    assert not (private / "env" / "envvars").exists()
    for path in private.rglob("*"):
        if path.is_file() and artifact_dir not in path.parents:
            assert key not in path.read_text(errors="replace"), path

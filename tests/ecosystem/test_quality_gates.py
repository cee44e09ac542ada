# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The quality gates really gate: a docs/argspec mismatch fails sanity, a lint violation fails ansible-lint.

Each test breaks a copy of the collection on purpose and runs the same tool ``make test`` runs on it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from conftest import REPO_ROOT, clean_env, run, sanity_lock, tool


def copy_collection(tmp_path: Path) -> Path:
    """The tracked and untracked-but-not-ignored files, laid out as ansible-test wants them."""
    tree = tmp_path / "ansible_collections" / "runpod" / "cloud"
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO_ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for relative in filter(None, listed.split("\0")):
        source = REPO_ROOT / relative
        if source.is_file():
            target = tree / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return tree


def get_pip_standin_in_place(env: dict[str, str]) -> None:
    """What the Makefile's sanity target does before ansible-test runs offline."""
    version = run([tool("python"), str(REPO_ROOT / "hack" / "ansible_test_pip_version.py")]).stdout.strip()
    cache = Path(env.get("HOME", str(Path.home()))) / ".ansible" / "test" / "cache"
    cache.mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO_ROOT / "hack" / "get_pip_standin.py", cache / ("get_pip_%s.py" % version.replace(".", "_")))


def test_a_documented_default_that_disagrees_with_the_argspec_fails_sanity(tmp_path):
    tree = copy_collection(tmp_path)
    module = tree / "plugins" / "modules" / "pod.py"
    text = module.read_text()
    assert "    default: present\n" in text
    module.write_text(text.replace("    default: present\n", "    default: running\n", 1))
    env = clean_env()
    command = [tool("ansible-test"), "sanity", "--local", "--python", "3.11", "--color", "no",
               "--test", "validate-modules", "plugins/modules/pod.py"]
    with sanity_lock():
        get_pip_standin_in_place(env)
        broken = run(command, cwd=tree, env=env, timeout=600)
    output = broken.stdout + broken.stderr
    assert broken.returncode != 0
    # The mismatch and nothing else failed it: every error is that one check on the changed option (make sanity
    # runs the same test on the untouched tree).
    errors = [line for line in output.splitlines() if line.startswith("ERROR: plugins/")]
    assert errors and all("doc-default-does-not-match-spec" in line for line in errors), output[-3000:]
    assert all(line.startswith("ERROR: plugins/modules/pod.py:") for line in errors), errors


def test_a_lint_violation_in_a_playbook_fails_ansible_lint(tmp_path):
    tree = copy_collection(tmp_path)
    bad = tree / "playbooks" / "gate_check.yml"
    bad.write_text(
        "---\n"
        "- name: A play with an unnamed task and a short module name\n"
        "  hosts: localhost\n"
        "  gather_facts: false\n"
        "  tasks:\n"
        "    - command: /bin/true\n"
    )
    env = clean_env(ANSIBLE_COLLECTIONS_PATH=str(tmp_path))
    result = run([tool("ansible-lint"), "--offline", "playbooks/gate_check.yml"], cwd=tree, env=env, timeout=600)
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert "name[missing]" in output and "fqcn[action-core]" in output
    # Only the planted violations, in the planted file (make lint runs the same profile over the untouched tree).
    plain = re.sub(r"\x1b\[[0-9;]*m", "", output)
    flagged = {line.split(":", 1)[0] for line in plain.splitlines() if line.startswith("playbooks/")}
    assert flagged == {"playbooks/gate_check.yml"}, output[-3000:]

# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The quality gates really gate: a docs/argspec mismatch fails sanity, a lint violation fails ansible-lint.

Each test breaks a copy of the collection on purpose and runs the same tool ``make test`` runs on it.
"""

from __future__ import annotations

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
        # The same check on the untouched module must pass, so the failure is the mismatch and nothing else.
        module.write_text(text)
        clean = run(command, cwd=tree, env=env, timeout=600)
    assert broken.returncode != 0
    assert "doc-default-does-not-match-spec" in broken.stdout + broken.stderr
    assert clean.returncode == 0, clean.stdout[-3000:] + clean.stderr[-3000:]


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
    bad.unlink()
    demo = run([tool("ansible-lint"), "--offline", "playbooks/demo.yml"], cwd=tree, env=env, timeout=600)
    assert demo.returncode == 0, demo.stdout[-3000:] + demo.stderr[-3000:]

# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""A run whose output carries a deprecation warning fails: the targets' (hack/integration_targets.py, which
``make targets`` and ``make compat`` run; ansible-test is replaced by a script that prints what it is given) and
the integration suite's ansible-playbook runs (tests/helpers/playbooks.py)."""

from __future__ import annotations

import importlib.util

import pytest
from helpers.paths import REPO_ROOT
from helpers.playbooks import PlaybookResult

SPEC = importlib.util.spec_from_file_location("integration_targets", REPO_ROOT / "hack" / "integration_targets.py")
targets = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(targets)


@pytest.fixture
def ansible_test(tmp_path, monkeypatch):
    """``ansible_test(output, rc)``: what the runner returns when ansible-test prints ``output`` and exits ``rc``."""

    def run(output, rc=0):
        script = tmp_path / "ansible-test"
        script.write_text(f"#!/bin/sh\nprintf '%s' '{output}'\nprintf 'to stderr\\n' >&2\nexit {rc}\n")
        script.chmod(0o755)
        monkeypatch.setattr(targets, "BIN", tmp_path)
        return targets.ansible_test(tmp_path, ["pod"])

    return run


def test_a_clean_run_passes_and_its_output_is_passed_through(ansible_test, capsys):
    assert ansible_test("ok=3 failed=0\n") == 0
    out = capsys.readouterr().out
    assert "ok=3 failed=0" in out and "to stderr" in out


def test_a_deprecation_warning_fails_a_passing_run_and_is_named(ansible_test, capsys):
    assert ansible_test("[DEPRECATION WARNING]: Something is deprecated. (task Read)\nok=3\n") == 1
    assert "FAILED: 1 deprecation warning(s)" in capsys.readouterr().out


def test_a_failed_run_keeps_its_exit_code(ansible_test):
    assert ansible_test("[DEPRECATION WARNING]: x\n", rc=2) == 2
    assert ansible_test("failed=1\n", rc=1) == 1


def test_the_playbook_helper_fails_a_run_with_a_deprecation_unless_allowed():
    said = "[DEPRECATION WARNING]: Param 'api_version' is deprecated."
    assert PlaybookResult.parse(0, '{"plays": []}', "", []).report == {"plays": []}
    with pytest.raises(AssertionError, match="api_version"):
        PlaybookResult.parse(0, '{"plays": []}', said, [])
    assert PlaybookResult.parse(0, '{"plays": []}', said, [], allow_deprecations=True).rc == 0

# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Galaxy's own import checks on the built tarball: ``galaxy-importer`` (from PyPI) passes with no error and no
warning, and lists and documents every module, the inventory plugin, the role and the EDA event source.

Offline and local: ansible-test (its container-based sanity step) is off, ansible-lint runs with ``--offline``.
galaxy-importer runs from its own virtualenv (tests/galaxy-importer/requirements.txt); the python of that
virtualenv is found, in order, in:

* ``RUNPOD_GALAXY_IMPORTER`` (the Makefile sets it), and then only there;
* ``tests/galaxy-importer/.venv/bin/python``;
* the python running this test (the project's virtualenv), when galaxy_importer imports there.

Its ansible-doc and ansible-lint are the ones of that virtualenv (its ``bin`` goes first on ``PATH``), as on Galaxy.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import REPO_ROOT, clean_env, inventory_plugin_names

IMPORTER_ENV = "RUNPOD_GALAXY_IMPORTER"
DEFAULT_VENV_PYTHON = REPO_ROOT / "tests" / "galaxy-importer" / ".venv" / "bin" / "python"
SUCCESS = "Importer processing completed successfully"
# What galaxy-importer prints for each step it really ran (a missing tool is a WARNING and a skipped step).
STEPS = (
    "Getting doc strings via ansible-doc",
    "Finding content inside collection",
    "Loading eda/plugins/event_source watch",
    "Loading role hosts",
    "Linting collection via ansible-lint ",  # followed by its version
    "...ansible-lint run complete",
    "Collection loading complete",
)


def _has_importer(python: str) -> bool:
    probe = subprocess.run([python, "-c", "import galaxy_importer"], capture_output=True, check=False, timeout=60)
    return probe.returncode == 0


def importer_python() -> str:
    configured = os.environ.get(IMPORTER_ENV)
    if configured:
        assert _has_importer(configured), f"{IMPORTER_ENV}={configured} cannot import galaxy_importer"
        return configured
    for candidate in (str(DEFAULT_VENV_PYTHON), sys.executable):
        if Path(candidate).exists() and _has_importer(candidate):
            return candidate
    pytest.fail(
        f"galaxy-importer is not installed: set {IMPORTER_ENV} to the python of a virtualenv with "
        f"`pip install -r tests/galaxy-importer/requirements.txt` (it conflicts with the project's virtualenv), "
        f"or create {DEFAULT_VENV_PYTHON.parent.parent}"
    )


@pytest.fixture(scope="session")
def galaxy_import(collection_tarball: Path, tmp_path_factory: pytest.TempPathFactory, output_dir: Path) -> Any:
    """One galaxy-importer run on the tarball: (completed process, its output lines, importer_result.json)."""
    python = importer_python()
    work = tmp_path_factory.mktemp("galaxy_import")
    config = work / "galaxy-importer.cfg"
    config.write_text(
        "[galaxy-importer]\n"
        "run_ansible_test = False\n"  # the container-based ansible-test step: off (make sanity runs ansible-test)
        "run_ansible_doc = True\n"
        "run_ansible_lint = True\n"
        "offline_ansible_lint = True\n"
        "run_flake8 = False\n"
        "check_changelog = True\n"
        "log_level_main = INFO\n"
        f"ansible_local_tmp = {work / 'ansible-tmp'}\n"
        f"tmp_root_dir = {work}\n"
    )
    env = {k: v for k, v in clean_env().items() if not k.startswith("GALAXY_IMPORTER_")}
    env["GALAXY_IMPORTER_CONFIG"] = str(config)
    env["PATH"] = f"{Path(python).parent}{os.pathsep}{env['PATH']}"
    completed = subprocess.run(
        [python, "-m", "galaxy_importer.main", str(collection_tarball)],
        cwd=work, env=env, capture_output=True, text=True, timeout=900, check=False,
    )
    (output_dir / "galaxy-importer.log").write_text(completed.stdout + completed.stderr)
    result_file = work / "importer_result.json"
    result = json.loads(result_file.read_text()) if result_file.exists() else None
    return completed, completed.stdout.splitlines(), result


def test_galaxy_importer_passes_without_an_error_or_a_warning(galaxy_import: Any) -> None:
    completed, lines, result = galaxy_import
    output = completed.stdout + completed.stderr
    assert completed.returncode == 0, output
    problems = [line for line in lines if line.startswith(("ERROR", "WARNING", "CRITICAL"))]
    assert not problems, "\n".join(problems)
    assert not completed.stderr.strip(), completed.stderr
    for step in STEPS:
        assert any(line.startswith(step) for line in lines), f"galaxy-importer did not print {step!r}:\n{output}"
    assert lines[-1] == SUCCESS, output
    assert result is not None


def test_galaxy_lists_and_documents_every_plugin_the_role_and_the_event_source(galaxy_import: Any) -> None:
    _completed, _lines, result = galaxy_import
    galaxy = yaml.safe_load((REPO_ROOT / "galaxy.yml").read_text())
    assert result["metadata"]["version"] == galaxy["version"]
    assert result["metadata"]["license"] == galaxy["license"]
    docs = {(c["content_type"], c["content_name"]): c for c in result["docs_blob"]["contents"]}

    modules = sorted(p.stem for p in (REPO_ROOT / "plugins" / "modules").glob("*.py") if p.stem != "__init__")
    for kind, names in (("module", modules), ("inventory", inventory_plugin_names())):
        for name in names:
            entry = docs[(kind, name)]
            assert entry["doc_strings"]["doc"]["short_description"], (kind, name)

    role = docs[("role", "hosts")]
    assert "runpod.cloud.hosts" in role["readme_html"] and "hosts_pods" in role["readme_html"]

    # The event source's in-file DOCUMENTATION, read by ansible-doc as Galaxy shows it.
    watch = docs[("eda/plugins/event_source", "watch")]["doc_strings"]
    assert watch, "galaxy-importer read no documentation from the event source"
    assert sorted(option["name"] for option in watch["doc"]["options"]) == sorted(
        ["api_key", "api_url", "serverless_url", "interval", "kinds", "name_prefix", "emit_initial", "run_time"]
    )
    assert watch["doc"]["version_added"] and "runpod.cloud.watch" in watch["examples"]
    assert result["docs_blob"]["collection_readme"]["html"]

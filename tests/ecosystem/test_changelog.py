# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""antsibull-changelog: the checked-in changelog is complete, consistent with its YAML source and lint-clean.

Regenerating after adding a module (new modules are detected, no fragment needed):

    antsibull-changelog release --version <galaxy.yml version> --reload-plugins
"""

from __future__ import annotations

import ast
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from conftest import REPO_ROOT, clean_env, run, tool

REGENERATE = "antsibull-changelog release --version {version} --reload-plugins"


def _galaxy_version() -> str:
    return yaml.safe_load((REPO_ROOT / "galaxy.yml").read_text())["version"]


def _released_version() -> str:
    """galaxy.yml's version once released; before that (galaxy.yml names the release being made, so that
    ``version_added`` and the build agree) the newest release in changelog.yaml, which galaxy.yml's must follow,
    with the coming release's summary waiting in a fragment."""
    version, releases = _galaxy_version(), _changelog()["releases"]
    if version in releases:
        return version
    newest = max(releases, key=_version_key)
    assert _version_key(version) > _version_key(newest), f"galaxy.yml's {version}: not released, not after {newest}"
    fragments = [yaml.safe_load(f.read_text()) or {} for f in (REPO_ROOT / "changelogs" / "fragments").glob("*.yml")]
    assert any("release_summary" in f for f in fragments), f"no fragment carries the release_summary of {version}"
    return newest


def _changelog() -> dict:
    path = REPO_ROOT / "changelogs" / "changelog.yaml"
    if not path.exists():
        pytest.fail(f"changelogs/changelog.yaml is missing: run `{REGENERATE.format(version=_galaxy_version())}`")
    return yaml.safe_load(path.read_text())


@pytest.fixture
def collection_copy(tmp_path: Path) -> Path:
    """The checkout's files (tracked and untracked, not ignored) at <tmp>/ansible_collections/runpod/cloud."""
    dest = tmp_path / "ansible_collections" / "runpod" / "cloud"
    dest.mkdir(parents=True)
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO_ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for raw in filter(None, listed):
        rel = raw.decode()
        if rel.startswith(("tests/", "hack/")) or not (REPO_ROOT / rel).is_file():
            continue
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO_ROOT / rel, dest / rel)
    return dest


def _version_added(module: str) -> str:
    source = (REPO_ROOT / "plugins" / "modules" / f"{module}.py").read_text()
    tree = ast.parse(source)
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "DOCUMENTATION" for t in node.targets):
            return str(yaml.safe_load(node.value.value)["version_added"])
    raise AssertionError(f"{module} has no DOCUMENTATION")


def _version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def test_changelog_records_every_module_in_the_current_release(modules_on_disk: list[str]) -> None:
    version = _released_version()
    changelog = _changelog()
    releases = changelog["releases"]
    assert version in releases, f"no release {version} in changelog.yaml: run `{REGENERATE.format(version=version)}`"
    recorded = sorted(m["name"] for release in releases.values() for m in release.get("modules", []))
    # A module announced for a later release (version_added newer than galaxy.yml) is recorded when that release
    # is made (`antsibull-changelog release --version <it> --reload-plugins` picks it up from version_added).
    released = [m for m in modules_on_disk if _version_key(_version_added(m)) <= _version_key(version)]
    assert recorded == released, (
        f"changelog.yaml records modules {recorded}, plugins/modules has {released} released: "
        f"run `{REGENERATE.format(version=version)}`"
    )
    assert releases[version]["changes"]["release_summary"].strip()
    text = (REPO_ROOT / "CHANGELOG.md").read_text().replace("\\", "")  # markdown escapes: runpod\\.cloud
    assert f"v{version}" in text
    for module in released:
        assert f"runpod.cloud.{module}" in text, f"CHANGELOG.md does not list runpod.cloud.{module}"


def test_changelog_md_is_generated_from_changelog_yaml(collection_copy: Path) -> None:
    """`generate` rewrites CHANGELOG.md from changelog.yaml: a hand edit or a stale file shows up as a diff."""
    _changelog()
    result = run([tool("antsibull-changelog"), "generate"], cwd=collection_copy, env=clean_env())
    assert result.returncode == 0, result.stdout + result.stderr
    regenerated = (collection_copy / "CHANGELOG.md").read_text()
    assert regenerated == (REPO_ROOT / "CHANGELOG.md").read_text(), (
        "CHANGELOG.md is stale: run `antsibull-changelog generate`"
    )


def test_rerunning_the_release_changes_nothing_and_stays_lint_clean(collection_copy: Path) -> None:
    """A release re-run rescans the plugins; if a module were missing from changelog.yaml it would be added here."""
    before = _changelog()
    version = _released_version()
    # Pending fragments (changelogs/fragments) belong to the next release: a re-run of the released one
    # would fold them into it, so it runs without them.
    shutil.rmtree(collection_copy / "changelogs" / "fragments", ignore_errors=True)
    result = run(
        [
            tool("antsibull-changelog"),
            "release",
            "--version",
            version,
            "--reload-plugins",
            "--date",
            str(before["releases"][version]["release_date"]),
        ],
        cwd=collection_copy,
        env=clean_env(),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    after = yaml.safe_load((collection_copy / "changelogs" / "changelog.yaml").read_text())
    assert after == before, f"changelog.yaml is not up to date: run `{REGENERATE.format(version=version)}`"
    lint = run([tool("antsibull-changelog"), "lint"], cwd=collection_copy, env=clean_env())
    assert lint.returncode == 0 and not lint.stdout.strip(), lint.stdout + lint.stderr


def test_lint_rejects_a_bad_fragment(collection_copy: Path) -> None:
    """The lint in `make test` really checks fragments (an unknown section fails it)."""
    (collection_copy / "changelogs" / "fragments" / "bad.yml").write_text("new_stuff:\n  - oops\n")
    lint = run([tool("antsibull-changelog"), "lint"], cwd=collection_copy, env=clean_env())
    assert lint.returncode != 0 or "bad.yml" in lint.stdout, lint.stdout
    assert "bad.yml" in lint.stdout

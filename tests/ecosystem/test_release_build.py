# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Release build: the Galaxy tarball ships the collection and nothing else, installs cleanly, documents itself."""

from __future__ import annotations

import json
import tarfile
from pathlib import Path

import yaml
from conftest import REPO_ROOT, clean_env, inventory_plugin_names, run, tool

# Top-level entries that are development-only and must never reach Galaxy.
FORBIDDEN_TOP_LEVEL = {
    "tests",
    ".venv",
    "hack",
    "Makefile",
    "requirements-dev.txt",
    "requirements-test.txt",
    "requirements-bench.txt",
    "ruff.toml",
    ".ansible-lint",
    ".ci",
    ".git",
    ".gitignore",
    ".hypothesis",
    ".pytest_cache",
    ".ruff_cache",
    ".mypy_cache",
    "bench",
}


def _members(tarball: Path) -> list[str]:
    with tarfile.open(tarball) as archive:
        return [m.name.lstrip("./").rstrip("/") for m in archive.getmembers()]


def test_tarball_excludes_dev_files(collection_tarball: Path, modules_on_disk: list[str]) -> None:
    names = _members(collection_tarball)
    top = {name.split("/", 1)[0] for name in names}
    assert not top & FORBIDDEN_TOP_LEVEL, sorted(top & FORBIDDEN_TOP_LEVEL)
    assert not [n for n in names if n.startswith("tests/") or "/tests/" in n]
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
    assert not [n for n in names if n.startswith("docs/build") or n == "docs/dev/developing.md"]
    # ... and ships what users and execution environments need.
    for needed in (
        "MANIFEST.json",
        "FILES.json",
        "README.md",
        "LICENSE",
        "roles/hosts/README.md",
        "meta/extensions.yml",
        "extensions/eda/eda_runtime.yml",
        "extensions/eda/plugins/event_source/watch.py",
        "meta/runtime.yml",
        "meta/execution-environment.yml",
        "requirements.txt",
        "docs/docsite/extra-docs.yml",
        "changelogs/changelog.yaml",
        "CHANGELOG.md",
        *(f"plugins/modules/{m}.py" for m in modules_on_disk),
        *(f"plugins/inventory/{p}.py" for p in inventory_plugin_names()),
    ):
        assert needed in names, f"{needed} missing from {collection_tarball.name}"


def test_manifest_matches_galaxy_yml(collection_tarball: Path) -> None:
    galaxy = yaml.safe_load((REPO_ROOT / "galaxy.yml").read_text())
    with tarfile.open(collection_tarball) as archive:
        manifest = json.load(archive.extractfile("MANIFEST.json"))
    info = manifest["collection_info"]
    assert (info["namespace"], info["name"], info["version"]) == (
        galaxy["namespace"],
        galaxy["name"],
        galaxy["version"],
    )
    assert collection_tarball.name == f"runpod-cloud-{galaxy['version']}.tar.gz"


def test_installed_tarball_lists_every_module(installed_collection: Path, modules_on_disk: list[str]) -> None:
    env = clean_env(ANSIBLE_COLLECTIONS_PATH=str(installed_collection))
    result = run([tool("ansible-doc"), "-l", "runpod.cloud", "--json"], env=env)
    assert result.returncode == 0, result.stderr
    listed = sorted(json.loads(result.stdout))
    assert listed == [f"runpod.cloud.{m}" for m in modules_on_disk]
    plugins = inventory_plugin_names()
    if plugins:
        result = run([tool("ansible-doc"), "-t", "inventory", "-l", "runpod.cloud", "--json"], env=env)
        assert result.returncode == 0, result.stderr
        assert sorted(json.loads(result.stdout)) == [f"runpod.cloud.{p}" for p in plugins]


def test_installed_tarball_renders_module_docs(installed_collection: Path, modules_on_disk: list[str]) -> None:
    env = clean_env(ANSIBLE_COLLECTIONS_PATH=str(installed_collection))
    fqcns = [f"runpod.cloud.{m}" for m in modules_on_disk]
    result = run([tool("ansible-doc"), "--json", *fqcns], env=env)
    assert result.returncode == 0, result.stderr
    docs = json.loads(result.stdout)
    assert sorted(docs) == fqcns
    for fqcn, entry in docs.items():
        doc = entry["doc"]
        # Read from the installed copy, not from this checkout through some leftover path.
        assert Path(doc["filename"]).resolve().is_relative_to(installed_collection.resolve()), doc["filename"]
        assert doc["short_description"], fqcn
        assert "api_key" in doc["options"], f"{fqcn}: the shared auth fragment did not resolve"
        assert entry["examples"] and fqcn in entry["examples"], f"{fqcn}: EXAMPLES should use the FQCN"
        assert entry["return"] is not None, f"{fqcn}: no RETURN"
    # The text rendering (what a user sees) works too.
    text = run([tool("ansible-doc"), *fqcns], env=env)
    assert text.returncode == 0, text.stderr
    for fqcn in fqcns:
        assert f"> MODULE {fqcn}" in text.stdout, fqcn


def test_every_cache_git_ignores_is_left_out_of_the_build() -> None:
    # A cache a dev tool writes into the checkout (mypy's, during make lint) must never ship, nor be read while it
    # changes: a build beside make lint failed on '.mypy_cache/3.11/cache.14.db-wal' changing under it.
    build_ignore = set(yaml.safe_load((REPO_ROOT / "galaxy.yml").read_text())["build_ignore"])
    ignored = [line.strip().rstrip("/") for line in (REPO_ROOT / ".gitignore").read_text().splitlines()]
    plain = [entry for entry in ignored if entry and not entry.startswith("#") and not {"/", "*"} & set(entry)]
    missing = [entry for entry in plain if entry not in build_ignore and entry != "__pycache__"]  # galaxy's own
    assert not missing, f"in .gitignore but not in galaxy.yml's build_ignore: {missing}"

"""Consistency of galaxy.yml, meta/runtime.yml and the plugins on disk."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def load(path):
    return yaml.safe_load((ROOT / path).read_text())


def test_galaxy_identity_and_license():
    galaxy = load("galaxy.yml")
    assert (galaxy["namespace"], galaxy["name"]) == ("runpod", "cloud")
    assert re.fullmatch(r"\d+\.\d+\.\d+", galaxy["version"])
    assert galaxy["license"] == ["GPL-3.0-or-later"]


def test_action_group_lists_exactly_the_modules_on_disk():
    modules = sorted(p.stem for p in (ROOT / "plugins" / "modules").glob("*.py") if not p.stem.startswith("_"))
    group = load("meta/runtime.yml")["action_groups"]["all"]
    assert sorted(group) == modules


def test_requires_ansible_is_a_full_version():
    assert re.fullmatch(r">=\d+\.\d+\.\d+", load("meta/runtime.yml")["requires_ansible"])


def test_collection_version_matches_user_agent_version():
    version_file = (ROOT / "plugins" / "module_utils" / "_api" / "client.py").read_text()
    assert f'COLLECTION_VERSION = "{load("galaxy.yml")["version"]}"' in version_file


def test_build_ignore_keeps_dev_only_files_out_of_the_release():
    ignored = set(load("galaxy.yml")["build_ignore"])
    dev_only = {"tests", "hack", ".venv", ".venv-compat-*", "Makefile", "requirements-dev.txt", "requirements-test.txt"}
    assert dev_only <= ignored
    # The execution environment reads these from the installed collection.
    assert not {"requirements.txt", "meta", "bindep.txt"} & ignored


def test_requirements_have_lower_bounds_only():
    lines = [line.strip() for line in (ROOT / "requirements.txt").read_text().splitlines()]
    requirements = [line for line in lines if line and not line.startswith("#")]
    assert requirements, "requirements.txt lists the collection's Python dependencies"
    for line in requirements:
        assert re.fullmatch(r"[A-Za-z0-9_.-]+>=[0-9.]+", line), line
        assert not line.lower().startswith("ansible")


def test_the_declared_license_ships_as_license():
    text = (ROOT / "LICENSE").read_text()
    assert "GNU GENERAL PUBLIC LICENSE" in text and "Version 3, 29 June 2007" in text
    assert "END OF TERMS AND CONDITIONS" in text  # the whole text, not a stub
    assert "LICENSE" not in load("galaxy.yml")["build_ignore"]


def test_every_role_has_a_readme():
    # Galaxy's importer stops at "No role readme found" otherwise.
    for role in (ROOT / "roles").iterdir():
        assert (role / "README.md").is_file(), role.name


def test_eda_runtime_routes_nothing_yet_in_the_shape_ansible_rulebook_reads():
    # ansible-rulebook (1.3.0 and later) reads plugin_routing.<event_source|event_filter>.<name> and refuses a
    # section that is not a mapping; a rename adds `old_name: {redirect: runpod.cloud.new_name, deprecation: ...}`.
    routing = load("extensions/eda/eda_runtime.yml")["plugin_routing"]
    assert set(routing) == {"event_source", "event_filter"}
    sources = {p.stem for p in (ROOT / "extensions" / "eda" / "plugins" / "event_source").glob("*.py")} - {"__init__"}
    for kind, entries in routing.items():
        assert isinstance(entries, dict), kind
        for name, entry in entries.items():
            assert set(entry) <= {"redirect", "deprecation", "tombstone"}, (kind, name)
            assert name not in sources or "redirect" not in entry, f"{name} is on disk and redirected"


def test_galaxy_lists_the_event_sources():
    dirs = [ext["args"]["ext_dir"] for ext in load("meta/extensions.yml")["extensions"]]
    assert dirs == ["eda/plugins/event_source"]
    assert all((ROOT / "extensions" / d).is_dir() for d in dirs)


def _versions_added(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "version_added":
                yield str(value)
            else:
                yield from _versions_added(value)
    elif isinstance(node, list):
        for item in node:
            yield from _versions_added(item)


def test_nothing_is_added_in_a_version_after_the_one_galaxy_yml_builds():
    # ansible-doc prints "added in <version_added>": a version later than the build reads as a feature still to come.
    import ast

    def key(version):
        return tuple(int(part) for part in version.split("."))

    documents = {}
    for path in [*(ROOT / "plugins").glob("*/*.py"), *(ROOT / "extensions").glob("eda/plugins/*/*.py")]:
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "DOCUMENTATION":
                documents[path] = yaml.safe_load(node.value.value)
        for node in ast.walk(ast.parse(path.read_text())):  # doc fragments: DOCUMENTATION inside a class
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, ast.Assign) and isinstance(getattr(item.value, "value", None), str):
                        documents[f"{path}:{item.targets[0].id}"] = yaml.safe_load(item.value.value)
    documents.update({path: yaml.safe_load(path.read_text()) for path in (ROOT / "roles").glob("*/meta/*.yml")})
    version = load("galaxy.yml")["version"]
    found = {(str(where), added) for where, document in documents.items() for added in _versions_added(document)}
    assert {added for _where, added in found} >= {"0.1.0", "0.2.0"}  # the walk reaches the documents
    late = sorted((where, added) for where, added in found if key(added) > key(version))
    assert not late, f"version_added after galaxy.yml's {version}: {late}"

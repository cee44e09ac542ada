# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Execution environment: ansible-builder sees the collection's Python (and system) dependencies.

No container engine is available, so the test stops at the build context, then replays the two context
steps that decide the EE's Python requirements, offline and exactly as the Containerfile runs them:
the galaxy stage (``ansible-galaxy collection install -r requirements.yml`` from ``_build``) and the builder
stage (``_build/scripts/introspect.py introspect --user-pip=requirements.txt --write-pip=...``).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import yaml
from conftest import REPO_ROOT, clean_env, run, tool
from helpers.paths import COLLECTIONS_ROOT


def _requirement_names(lines: list[str]) -> dict[str, str]:
    """{'httpx': 'httpx>=0.27.0  # from collection runpod.cloud', ...}"""
    names = {}
    for line in lines:
        text = line.strip()
        if text and not text.startswith("#"):
            names[re.split(r"[<>=!~ \[;#]", text, maxsplit=1)[0].lower()] = text
    return names


def _collection_python_requirements() -> dict[str, str]:
    return _requirement_names((REPO_ROOT / "requirements.txt").read_text().splitlines())


def test_requirements_txt_is_fit_for_an_ee() -> None:
    reqs = _collection_python_requirements()
    assert {"httpx", "pydantic"} <= set(reqs)
    assert not {"ansible", "ansible-core"} & set(reqs), "an EE brings its own ansible-core"
    for line in reqs.values():
        assert "<" not in line and "==" not in line, f"no caps or pins in requirements.txt: {line}"
    meta = yaml.safe_load((REPO_ROOT / "meta" / "execution-environment.yml").read_text())
    for kind, filename in meta["dependencies"].items():
        assert (REPO_ROOT / filename).is_file(), f"meta/execution-environment.yml {kind}: {filename} is missing"


def test_builder_introspection_of_the_checkout() -> None:
    result = run([tool("ansible-builder"), "introspect", "--sanitize", str(COLLECTIONS_ROOT)])
    assert result.returncode == 0, result.stderr
    data = yaml.safe_load(result.stdout.split("\n", 1)[1])  # first line is a comment header
    python = _requirement_names(data["python"])
    for name, line in _collection_python_requirements().items():
        assert name in python, f"{name} not introspected: {result.stdout}"
        assert python[name].startswith(line) and "from collection runpod.cloud" in python[name]


def test_build_context_requirements_include_collection_deps(collection_tarball: Path, tmp_path: Path) -> None:
    # An EE definition like a platform team would write: the collection from its release tarball,
    # plus a Python package of their own.
    (tmp_path / "collections").mkdir()
    shutil.copy2(collection_tarball, tmp_path / "collections" / collection_tarball.name)
    definition = {
        "version": 3,
        "images": {"base_image": {"name": "registry.invalid/ee-minimal:latest"}},  # never pulled
        "dependencies": {
            "galaxy": {"collections": [{"name": f"collections/{collection_tarball.name}", "type": "file"}]},
            "python": ["jmespath"],
        },
        "additional_build_files": [{"src": "collections", "dest": "collections"}],
    }
    (tmp_path / "execution-environment.yml").write_text(yaml.safe_dump(definition))
    context = tmp_path / "context"
    result = run(
        [
            tool("ansible-builder"),
            "create",
            "-f",
            "execution-environment.yml",
            "-c",
            str(context),
            "--output-filename",
            "Containerfile",
        ],
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    build = context / "_build"
    containerfile = (context / "Containerfile").read_text()
    assert "introspect.py introspect --user-pip=requirements.txt" in containerfile
    assert (build / "collections" / collection_tarball.name).is_file()
    assert (build / "scripts" / "introspect.py").is_file()

    # Galaxy stage, offline: install what the context's requirements.yml names, from inside _build.
    collections = tmp_path / "usr_share_ansible" / "collections"
    install = run(
        [
            tool("ansible-galaxy"),
            "collection",
            "install",
            "--offline",
            "-r",
            "requirements.yml",
            "-p",
            str(collections),
        ],
        cwd=build,
        env=clean_env(ANSIBLE_COLLECTIONS_PATH=str(collections)),
    )
    assert install.returncode == 0, install.stdout + install.stderr
    installed = collections / "ansible_collections" / "runpod" / "cloud"
    assert (installed / "meta" / "execution-environment.yml").is_file(), "build_ignore dropped the EE metadata"

    # Builder stage: the context's own introspection script writes the EE's final requirements.
    pip_out, bindep_out = tmp_path / "requirements.out", tmp_path / "bindep.out"
    introspect = run(
        [
            tool("python"),
            str(build / "scripts" / "introspect.py"),
            "introspect",
            f"--user-pip={build / 'requirements.txt'}",
            f"--write-pip={pip_out}",
            f"--write-bindep={bindep_out}",
            str(collections),
        ]
    )
    assert introspect.returncode == 0, introspect.stdout + introspect.stderr
    final = _requirement_names(pip_out.read_text().splitlines())
    for name, line in _collection_python_requirements().items():
        assert name in final, f"{name} missing from the EE requirements: {pip_out.read_text()}"
        assert final[name] == f"{line}  # from collection runpod.cloud"
    assert "jmespath" in final  # the user's own entry is kept next to the collection's
    assert "openssh-client" in bindep_out.read_text()

"""Each module_utils package's docstring says what it holds (docs/dev/architecture.md, "Layers"): every file of the
package is named there, and every bare name there (````name````) is one of its files, a name one of its files
defines, or a layer. ``test_the_check_sees_a_missing_and_a_retired_file`` shows the check can fail."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

MODULE_UTILS = Path(__file__).resolve().parents[2] / "plugins" / "module_utils"
PACKAGES = sorted(path.parent for path in MODULE_UTILS.glob("_*/__init__.py"))
NAME = re.compile(r"``([A-Za-z_][A-Za-z0-9_]*)``")


def problems(docstring: str, files: dict[str, str]) -> list[str]:
    """What ``docstring`` gets wrong about ``files`` (file stem -> source)."""
    named = set(NAME.findall(docstring))
    defined = {node.name for source in files.values() for node in ast.walk(ast.parse(source))
               if isinstance(node, ast.FunctionDef | ast.ClassDef)}
    defined |= {target.id for source in files.values() for node in ast.parse(source).body
                if isinstance(node, ast.Assign) for target in node.targets if isinstance(target, ast.Name)}
    layers = {path.name for path in PACKAGES}
    found = [f"{stem}.py is not named" for stem in sorted(set(files) - named)]
    found += [f"``{name}`` is no file, name or layer here" for name in sorted(named - set(files) - defined - layers)
              if name.islower()]
    return found


@pytest.mark.parametrize("package", PACKAGES, ids=lambda path: path.name)
def test_a_package_docstring_names_its_files_and_no_file_that_is_gone(package):
    docstring = ast.get_docstring(ast.parse((package / "__init__.py").read_text())) or ""
    files = {path.stem: path.read_text() for path in package.glob("*.py") if path.name != "__init__.py"}
    assert problems(docstring, files) == []


def test_the_check_sees_a_missing_and_a_retired_file():
    files = {"pods": "def create():\n    pass\n", "shared": "X = 1\n"}
    assert problems("``pods`` and ``views``; ``create``, ``X``", files) == [
        "shared.py is not named", "``views`` is no file, name or layer here"]

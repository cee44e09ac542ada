# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""``LONGEST_FIRST`` in tests/integration/conftest.py names tests that exist: a renamed or removed test would only
lose its place in the order, silently, and the long ones would drift back to the end of a run."""

from __future__ import annotations

import ast

from helpers.paths import TESTS_ROOT

INTEGRATION = TESTS_ROOT / "integration"


def listed_names() -> tuple[str, ...]:
    tree = ast.parse((INTEGRATION / "conftest.py").read_text())
    for node in tree.body:
        targets = [getattr(target, "id", None) for target in getattr(node, "targets", ())]
        if isinstance(node, ast.Assign) and targets == ["LONGEST_FIRST"]:
            return ast.literal_eval(node.value)
    raise AssertionError("no LONGEST_FIRST in tests/integration/conftest.py")


def test_every_name_in_longest_first_is_a_test_function_of_its_file():
    names = listed_names()
    assert len(names) == len(set(names)), "a name is listed twice"
    for name in names:
        file_name, function = name.split("::")
        path = INTEGRATION / file_name
        assert path.is_file(), f"{name}: no {path}"
        functions = {node.name for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.FunctionDef)}
        assert function.startswith("test_") and function in functions, f"{name}: no such test in {file_name}"

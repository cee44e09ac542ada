"""Each module's code outside its documentation stays under 400 lines (docs/dev/architecture.md, "Resource
modules"): a module is docs, argument spec and a short dispatcher; its rules live in ``module_utils``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted((ROOT / "plugins" / "modules").glob("*.py"))
DOC_STRINGS = ("DOCUMENTATION", "EXAMPLES", "RETURN")
MAX_CODE_LINES = 400


def code_lines(source: str) -> int:
    """Non-blank, non-comment lines outside the ``DOCUMENTATION``/``EXAMPLES``/``RETURN`` assignments."""
    documentation = set()
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id in DOC_STRINGS for target in node.targets
        ):
            documentation.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return sum(
        1
        for number, line in enumerate(source.splitlines(), start=1)
        if number not in documentation and line.strip() and not line.strip().startswith("#")
    )


def test_the_count_leaves_out_documentation_blanks_and_comments():
    source = (
        "# a comment\n"
        "from __future__ import annotations\n"
        "\n"
        'DOCUMENTATION = r"""\nmodule: x\noptions: {}\n"""\n'
        'EXAMPLES = """\n- x:\n"""\n'
        "RETURN = r'''\nx: {}\n'''\n"
        "ARGUMENT_SPEC = dict(\n"
        "    name=dict(),  # a trailing comment still counts the line\n"
        ")\n"
        "    # an indented comment\n"
        "def main():\n"
        '    """A docstring is code here."""\n'
        "    return 1\n"
    )
    assert code_lines(source) == 7


@pytest.mark.parametrize("path", MODULES, ids=[path.name for path in MODULES])
def test_each_module_is_under_the_bound(path):
    lines = code_lines(path.read_text())
    assert lines < MAX_CODE_LINES, (
        f"{path.name} has {lines} lines of code outside its documentation (the bound is {MAX_CODE_LINES}): move "
        "rules, checks and result shapes into module_utils (see docs/dev/architecture.md)"
    )


def test_every_module_is_counted():
    assert len(MODULES) >= 13

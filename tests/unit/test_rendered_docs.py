# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""What ``ansible-doc`` shows renders as written: ansible-core's text renderer ends ``C(...)`` (and ``I``, ``B``,
``M``, ``U``) at the first ``)``, so a ``)`` inside one cuts it short and prints the rest raw (issue 52:
``C({{ lookup('x', 'Y') }})`` rendered as ``{{ lookup('x', 'Y'' }})``)."""

from __future__ import annotations

import ast
import os
import re
import subprocess

import yaml
from helpers.paths import REPO_ROOT, tool

# The renderer's own patterns (ansible/cli/doc.py, DocCLI._ITALIC ... _CONST): content up to the first ")".
MARKUP = re.compile(r"\b([CIBMU])\(([^)]+)\)")
PAIRS = {"(": ")", "[": "]", "{": "}"}


def balanced(text: str) -> bool:
    stack = []
    for char in text:
        if char in PAIRS:
            stack.append(PAIRS[char])
        elif char in PAIRS.values() and (not stack or stack.pop() != char):
            return False
    return not stack and text.count("'") % 2 == 0 and text.count('"') % 2 == 0


def cut_short(text: str) -> list[str]:
    return [match.group(0) for match in MARKUP.finditer(text) if not balanced(match.group(2))]


def strings(node):
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from strings(value)
    elif isinstance(node, list):
        for item in node:
            yield from strings(item)


def documents():
    """Every documentation string of the collection: plugins, doc fragments, the EDA source, role specs."""
    paths = [*(REPO_ROOT / "plugins").glob("*/*.py"), *(REPO_ROOT / "extensions").glob("eda/plugins/*/*.py")]
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Assign) and isinstance(getattr(node.value, "value", None), str):
                name = getattr(node.targets[0], "id", "")
                if name.isupper() and name not in ("EXAMPLES",) and node.value.value.lstrip().startswith(
                        ("options", "module", "name", "short_description", "\n", "description")):
                    yield f"{path.relative_to(REPO_ROOT)}:{name}", yaml.safe_load(node.value.value)
    for path in (REPO_ROOT / "roles").glob("*/meta/argument_specs.yml"):
        yield str(path.relative_to(REPO_ROOT)), yaml.safe_load(path.read_text())


def test_the_check_sees_a_cut_short_markup():
    assert cut_short("a vaulted value or C({{ lookup('ansible.builtin.env', 'MY_KEY') }}) works")
    assert cut_short("why it failed (C(<message> (<code>)))")
    assert not cut_short("C(runpod_ssh) (C({host, port, user, command}) or null), I(ssh -p 22)")


def test_no_markup_in_the_sources_holds_a_parenthesis_the_renderer_would_stop_at():
    found = {where: cut_short(text) for where, document in documents() for text in strings(document)}
    assert len(found) > 20  # every plugin and fragment was read
    assert not {where: bad for where, bad in found.items() if bad}


def test_ansible_doc_renders_every_plugin_without_raw_markup():
    modules = sorted(f"runpod.cloud.{p.stem}" for p in (REPO_ROOT / "plugins" / "modules").glob("*.py"))
    for kind, names in (("module", modules), ("inventory", ["runpod.cloud.runpod"])):
        rendered = subprocess.run([tool("ansible-doc"), "-t", kind, *names], capture_output=True, text=True,
                                  check=True, timeout=120, env={**os.environ, "ANSIBLE_NOCOLOR": "1"}).stdout
        assert all(f"{name} (" in rendered for name in names), rendered[:500]
        # Markup that rendered leaves none of its own behind, and no "'' }})" tail of a cut-short span.
        raw = re.findall(r"\b(?:[CIBMUOVE]|RV)\([^)\s]", rendered)
        assert not raw, raw
        assert "'' }})" not in rendered and "))) " not in rendered

# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The doc-examples test (tests/integration/test_doc_examples.py) runs every example: this checks what it finds.

Every module, plugin with EXAMPLES, EDA source and role is a source with examples that run; every yaml block of
README.md, docs/ and the docsite runs or says why not where it is written, and the blocks not run are the ones
listed here (adding one shows in review)."""

from __future__ import annotations

import re
import subprocess

import pytest
from helpers import doc_examples
from helpers.paths import REPO_ROOT

SOURCES = doc_examples.sources()

NOT_RUN = [
    "docs/eda.md: a rulebook's sources section; the source's EXAMPLES run as whole rulebooks",
    "docs/eda.md: the shape of an event, not a playbook",
    "docs/eda.md: one line of a rule, shown inside a rulebook",
    "docs/gpu-capacity.md: the shape of a result, not a playbook",
    "docs/pods.md: one task of a play that already has a cluster's result and a work_dir",
    "docs/pods.md: the shape of a result, not a playbook",
    "docs/pods.md: the shape of a result, not a playbook",
]


def tracked(pattern: str) -> list[str]:
    listed = subprocess.run(["git", "ls-files", pattern], cwd=REPO_ROOT, capture_output=True, text=True, check=True)
    return listed.stdout.split()


def test_every_plugin_with_examples_and_every_role_is_a_source_whose_examples_run():
    with_examples = {path for path in tracked("plugins/*.py") + tracked("extensions/*.py")
                     if "\nEXAMPLES = " in (REPO_ROOT / path).read_text()}
    modules = set(tracked("plugins/modules/*.py"))
    assert modules and modules <= with_examples, modules - with_examples  # every module shows examples
    roles = {path.split("/")[1] for path in tracked("roles/*")}
    found = {source.path: source for source in SOURCES}
    assert with_examples | {f"roles/{role}" for role in roles} <= set(found)
    for path in with_examples | {f"roles/{role}" for role in roles}:
        assert found[path].runnable, f"{path}: no example runs"


def test_every_page_with_yaml_is_a_source():
    pages = [p for p in tracked("README.md") + tracked(":(glob)docs/*.md") + tracked(":(glob)docs/docsite/rst/*.rst")
             if "```yaml" in (REPO_ROOT / p).read_text() or "code-block:: yaml" in (REPO_ROOT / p).read_text()]
    assert pages and set(pages) <= {source.path for source in SOURCES}


def test_a_block_that_does_not_run_says_why_where_it_is_written():
    assert not [block.where for block in doc_examples.unmarked(SOURCES)]
    # Compared without line numbers, so an edit above a block does not touch this list.
    assert [re.sub(r":\d+:", ":", line, count=1) for line in doc_examples.skipped(SOURCES)] == NOT_RUN


@pytest.mark.parametrize("text, before, reason", [
    ("- name: x\n  ansible.builtin.debug: {}\n", "", None),
    ("failed: true\n", "<!-- not run: a result -->", "a result"),
    ("# not run: part of a play\n- name: x\n  ansible.builtin.debug: {}\n", "", "part of a play"),
    ("- name: x\n  hosts: all\n", ".. not run: needs hosts", "needs hosts"),
])
def test_marks(text, before, reason):
    assert doc_examples._block("p", 1, text, before).skip == reason


def test_kinds():
    assert doc_examples._block("p", 1, "- hosts: localhost\n  tasks: []\n", "").kind == "plays"
    assert doc_examples._block("p", 1, "- ansible.builtin.debug: {}\n", "").kind == "tasks"
    assert doc_examples._block("p", 1, "placement: {}\n", "").kind == "fragment"
    assert doc_examples._block("p", 1, "- hosts: a\n- debug: {}\n", "").kind == "fragment"

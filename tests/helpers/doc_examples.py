# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Every example the collection shows a user, found where the user reads it.

``sources()`` lists one ``Source`` per place: each module's, inventory plugin's and EDA source's ``EXAMPLES``,
each role's README, ``README.md`` and every page of ``docs/`` (markdown ``yaml``/``yml`` fences, the docsite's
``.. code-block:: yaml`` / ``yaml+jinja``). Each ``Block`` is a playbook (a list of plays), a task list, an inventory
source or a rulebook. A block that cannot run alone (a result's shape, a fragment of a larger example) says so
where it is written, so a reader sees it too: in markdown an HTML comment ``<!-- not run: <reason> -->`` on the
line before the fence, in the docsite a comment ``.. not run: <reason>`` before the directive, anywhere a first
line ``# not run: <reason>`` in the block. A yaml block that is neither runnable nor marked is an error
(``unmarked``), so nothing is left out by accident. tests/integration/test_doc_examples.py runs the rest against
the simulator; tests/unit/test_doc_examples.py checks the enumeration.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from helpers.paths import REPO_ROOT

NOT_RUN = re.compile(r"^\s*(?:<!--|\.\.|#)\s*not run:\s*(?P<reason>.*?)\s*(?:-->)?\s*$")
FENCE = re.compile(r"^(?P<indent>\s*)```(?:ya?ml)\s*$")
CODE_BLOCK = re.compile(r"^(?P<indent>\s*)\.\. code-block:: yaml(?:\+jinja)?\s*$")


@dataclass
class Block:
    """One example: where it is (``path:line``), its text, what it is, and why it is not run (if so)."""

    path: str
    line: int
    text: str
    kind: str  # plays, tasks, inventory, rulebook or fragment
    skip: str | None = None

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"

    def data(self) -> Any:
        return yaml.safe_load(self.text)


@dataclass
class Source:
    """A place examples are shown: a plugin's EXAMPLES, a role's README or a page."""

    path: str
    kind: str  # module, inventory, event_source, role, page
    blocks: list[Block] = field(default_factory=list)

    @property
    def runnable(self) -> list[Block]:
        return [block for block in self.blocks if block.skip is None]


def _kind(data: Any) -> str:
    if isinstance(data, list) and data and all(isinstance(item, dict) for item in data):
        if all("hosts" in item or "import_playbook" in item for item in data):
            return "plays"
        if not any("hosts" in item for item in data):
            return "tasks"
    return "fragment"


def _marked(text: str) -> str | None:
    first = next((line for line in text.splitlines() if line.strip()), "")
    match = NOT_RUN.match(first)
    return match.group("reason") if match else None


def _block(path: str, line: int, text: str, before: str, kind: str | None = None) -> Block:
    match = NOT_RUN.match(before)
    skip = match.group("reason") if match else _marked(text)
    if kind is None:
        try:
            kind = _kind(yaml.safe_load(text))
        except yaml.YAMLError:
            kind = "fragment"
    return Block(path, line, text, kind, skip)


def _examples(path: Path) -> tuple[str, int] | None:
    """A plugin file's EXAMPLES and the line it starts on."""
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "EXAMPLES" for t in node.targets):
            return str(ast.literal_eval(node.value)), node.lineno
    return None


def _dedent(lines: list[str], indent: int) -> str:
    return "\n".join(line[indent:] for line in lines) + "\n"


def markdown_blocks(path: Path) -> list[Block]:
    rel, lines, blocks = str(path.relative_to(REPO_ROOT)), path.read_text().splitlines(), []
    index = 0
    while index < len(lines):
        match = FENCE.match(lines[index])
        if match:
            end = next(i for i in range(index + 1, len(lines)) if lines[i].strip() == "```")
            before = next((lines[i] for i in range(index - 1, -1, -1) if lines[i].strip()), "")
            text = _dedent(lines[index + 1:end], len(match.group("indent")))
            blocks.append(_block(rel, index + 1, text, before))
            index = end
        index += 1
    return blocks


def rst_blocks(path: Path) -> list[Block]:
    rel, lines, blocks = str(path.relative_to(REPO_ROOT)), path.read_text().splitlines(), []
    for index, line in enumerate(lines):
        match = CODE_BLOCK.match(line)
        if not match:
            continue
        body, indent = [], len(match.group("indent"))
        for following in lines[index + 1:]:
            if following.strip() and len(following) - len(following.lstrip()) <= indent:
                break
            body.append(following)
        inner = min(len(b) - len(b.lstrip()) for b in body if b.strip())
        before = next((lines[i] for i in range(index - 1, -1, -1) if lines[i].strip()), "")
        blocks.append(_block(rel, index + 1, _dedent(body, inner), before))
    return blocks


def plugin_source(path: Path, kind: str) -> Source:
    rel = str(path.relative_to(REPO_ROOT))
    source = Source(rel, kind)
    found = _examples(path)
    if found is None:
        return source
    text, line = found
    if kind == "module":
        source.blocks.append(_block(rel, line, text, ""))
    else:  # an inventory source or a rulebook per YAML document
        for document in re.split(r"(?m)^---\s*$", text):
            if document.strip():
                kind_of_block = "inventory" if kind == "inventory" else "rulebook"
                source.blocks.append(_block(rel, line, document, "", kind_of_block))
            line += document.count("\n") + 1
    return source


def sources() -> list[Source]:
    """Every place with examples, plugins first, in a stable order."""
    found = [plugin_source(p, "module") for p in sorted((REPO_ROOT / "plugins" / "modules").glob("*.py"))]
    found += [plugin_source(p, "inventory") for p in sorted((REPO_ROOT / "plugins" / "inventory").glob("*.py"))]
    events = REPO_ROOT / "extensions" / "eda" / "plugins" / "event_source"
    found += [plugin_source(p, "event_source") for p in sorted(events.glob("*.py")) if p.stem != "__init__"]
    for role in sorted(p for p in (REPO_ROOT / "roles").iterdir() if p.is_dir()):
        found.append(Source(str(role.relative_to(REPO_ROOT)), "role", markdown_blocks(role / "README.md")))
    pages = [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md"))]
    pages += sorted((REPO_ROOT / "docs" / "docsite" / "rst").glob("*.rst"))
    for page in pages:
        blocks = rst_blocks(page) if page.suffix == ".rst" else markdown_blocks(page)
        if blocks:
            found.append(Source(str(page.relative_to(REPO_ROOT)), "page", blocks))
    return found


def unmarked(found: list[Source]) -> list[Block]:
    """Blocks that neither run nor say why not."""
    return [b for s in found for b in s.blocks if b.kind == "fragment" and b.skip is None]


def skipped(found: list[Source]) -> list[str]:
    return [f"{b.where}: {b.skip}" for s in found for b in s.blocks if b.skip is not None]


def playbook(source: Source) -> list[dict[str, Any]]:
    """The source's runnable plays and task lists as one playbook, in the order a reader meets them: task lists
    in a row share one localhost play (a later block uses what an earlier one registered)."""
    plays: list[dict[str, Any]] = []
    for block in source.runnable:
        data = block.data()
        if block.kind == "plays":
            plays.extend(data)
        elif plays and plays[-1].get("_tasks_of") == source.path:
            plays[-1]["tasks"].extend(data)
        else:
            plays.append({"name": f"examples of {source.path}", "hosts": "localhost", "gather_facts": False,
                          "_tasks_of": source.path, "tasks": list(data)})
    for play in plays:
        play.pop("_tasks_of", None)
    return plays

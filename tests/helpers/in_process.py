# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Modules run in the test's own process against the simulator, over real HTTP, without ``ansible-playbook``.

For a table whose rows are the collection's own decisions (what ``module_utils`` does with the answers the
simulator gives), a playbook run adds a module process per row (about 0.4 CPU-s each) and proves nothing more:
the issue's rule is one test per behaviour, through ``ansible-playbook`` only where Ansible's part is the subject
(docs/dev/developing.md, "Quick, without tricks"). The module's ``main()`` gets its arguments as a task's module
would, with the simulator's URLs and key, and builds its own client: only the process, the action plugin and the
callback are left out, and the playbook tests cover those. So is what a module warns or deprecates: once the
process has loaded ansible-core's controller side (another test of the worker did), ansible-core hands warnings to
the controller's display instead of the result, so a row that warns runs as a task.
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from helpers.fakes import module_result


class ModuleRuns:
    """``run(name, module, args)`` runs ``runpod.cloud.<module>`` and keeps its result under ``name``;
    ``task_result(name)`` reads it back, as ``PlaybookResult.task_result`` does for a playbook's tasks."""

    def __init__(self, sim: Any, capsys: pytest.CaptureFixture[str]) -> None:
        self.sim = sim
        self.capsys = capsys
        self.results: dict[str, dict[str, Any]] = {}

    def run(self, name: str, module: str, args: dict[str, Any], *, check_mode: bool = False,
            diff: bool = False, with_key: bool = True) -> dict[str, Any]:
        """``with_key=False`` leaves ``api_key`` out, so the module takes RUNPOD_API_KEY as a task's module does."""
        code = importlib.import_module(f"ansible_collections.runpod.cloud.plugins.modules.{module}")
        given = {**({"api_key": self.sim.api_key} if with_key else {}), "api_url": self.sim.urls["api_v2"],
                 "serverless_url": self.sim.urls["serverless"], **args}
        self.results[name] = module_result(code, given, self.capsys, check_mode=check_mode, diff=diff)
        return self.results[name]

    def task_result(self, name: str) -> dict[str, Any]:
        return self.results[name]

    def failed(self) -> set[str]:
        """The names of the steps that failed (a walk compares them with the refusals it expects)."""
        return {name for name, result in self.results.items() if result.get("failed")}

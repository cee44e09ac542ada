# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Helpers shared by every test suite (``import helpers``; ``tests/`` is on ``sys.path`` via tests/conftest.py).

* :mod:`helpers.paths`: the repository, the ``ansible_collections/runpod/cloud`` tree, the venv's tools.
* :mod:`helpers.playbooks`: ``run_playbook`` and the playbook text builders (``play``, ``pod_task``, ...).
* :mod:`helpers.fakes`: ``FakeClock`` and ``FakeBackend`` (fakes of the backend's resource objects) for tests.
"""

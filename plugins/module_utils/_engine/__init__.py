# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils package is private to runpod.cloud and may change without notice.
"""The wait engine, pure Python: the poll loop, its cadence and the pollers' interface (``poll``), outcomes, miss
counting and the cancel by signal (``outcome``), the pollers of pods, fleets, clusters, endpoints, builds and
serverless jobs (``pod_pollers``, ``endpoint_poller``, ``build_poller``, ``job_poller``), the SSH probe
(``ssh_probe``) and the host key check, which the inventory runs too (``host_key_check``). The words it speaks
(views, durations, derived pod status, host keys) are the ground floor's, ``_vocab``.

May import: the standard library, ``_vocab`` and ``_engine`` itself; never Ansible, httpx, pydantic or another layer
(tests/unit/test_architecture.py), so the engine runs and is tested anywhere.
"""

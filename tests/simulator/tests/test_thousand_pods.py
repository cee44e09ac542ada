# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""1,000 pods list completely on REST v2. How fast, and in how much memory: ``make bench``
(tests/bench/timing/test_simulator_listing.py); no wall-clock assertion runs in ``make test``."""

from __future__ import annotations


def test_thousand_pods_list_completely_on_v2(sim, v2):
    ids = set(sim.admin.seed(1000, ports=["8888/http", "22/tcp"]))
    assert len(ids) == 1000
    assert {pod["id"] for pod in v2.get("/pods").json()["pods"] if pod} == ids

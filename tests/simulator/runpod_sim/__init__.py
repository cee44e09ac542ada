# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""A local RunPod control plane for tests: REST v2, the serverless data plane and an admin API.

Run it with ``python -m runpod_sim`` (see ``docs/simulator.md``); drive it from tests with
:mod:`runpod_sim.testing`.
"""

from __future__ import annotations

DEFAULT_API_KEY = "sim-test-key"
__version__ = "0.1.0"

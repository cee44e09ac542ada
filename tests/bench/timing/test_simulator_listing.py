# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""1,000 pods: the v2 listing answers in under 50 ms and the simulator stays under 200 MB RSS."""

from __future__ import annotations

from runpod_sim.bench import measure_listing


def test_thousand_pod_listing_is_fast_and_small(sim, figures):
    measured = measure_listing(sim, pods=1000, reads=15)
    figures("simulator 1,000-pod listing", **measured)
    assert measured["v2"]["listed"] == 1000
    # Server-side time (request log) is the simulator's own cost; the median keeps a shared CPU's hiccups out.
    assert measured["v2"]["server_median_ms"] < 50
    assert measured["rss_kib"]["VmHWM"] < 200 * 1024

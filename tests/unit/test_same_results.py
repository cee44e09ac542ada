# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The normaliser the both-paths tests compare with: it hides what differs run to run, and nothing else."""

from __future__ import annotations

from helpers.same_results import collect_ids, normalise


def _result(pod_id, port, code="wait_timeout", state="ssh port allocated but not reachable"):
    return {
        "code": code,
        "msg": f"timed out after 2.1s waiting for ssh on pod {pod_id}: {state} at 127.0.0.1:{port}",
        "pod": {"id": pod_id, "created_at": "2026-12-01T10:00:00Z", "ssh": {"port": port}},
        "wait": {"elapsed": 2, "polls": 7, "history": [{"state": state}], "last_state": state,
                 "last_states": {pod_id: state}},
    }


def test_two_runs_that_differ_only_in_ids_ports_and_timings_compare_equal():
    first, second = _result("abc123xyz", 40022), _result("qrs789tuv", 41999)
    assert normalise(first, collect_ids(first, {})) == normalise(second, collect_ids(second, {}))


def test_a_different_code_or_state_stays_visible():
    first = _result("abc123xyz", 40022)
    for other in (_result("qrs789tuv", 41999, code="wait_interrupted"),
                  _result("qrs789tuv", 41999, state="ssh port not allocated yet")):
        assert normalise(first, collect_ids(first, {})) != normalise(other, collect_ids(other, {}))


def test_ids_become_stable_placeholders_in_keys_and_text():
    result = _result("abc123xyz", 40022)
    shaped = normalise(result, collect_ids(result, {}))
    assert shaped["pod"]["id"] == "<id0>" and "<id0>" in shaped["msg"] and "<id0>" in shaped["wait"]["last_states"]
    assert "127.0.0.1:PORT" in shaped["msg"] and "after T" in shaped["msg"]
    assert "created_at" not in shaped["pod"] and "history" not in shaped["wait"]


def test_log_line_times_and_host_key_fingerprints_are_hidden_but_the_lines_stay():
    def failed(pod_id, fingerprint, ts):
        line = f"256 SHA256:{fingerprint} root@{pod_id} (ED25519)"
        return {"pod": {"id": pod_id}, "msg": f'last container line: "{line}" ({ts})',
                "logs": {"container": [{"ts": ts, "line": line}], "system": [], "unavailable": None}}

    first = failed("abc123xyz", "6JlzWSX1MvZFVOiFkZkyeMF2TcWZ7+3U0u1GPjaLCJg", "2026-12-04T07:00:00.000001Z")
    second = failed("qrs789tuv", "Qa1vFnvgho2biBHhGwTP2oL0Y11dq8qRHRmBr7ztVFg", "2026-12-04T07:05:00.000001Z")
    shaped = normalise(first, collect_ids(first, {}))
    assert shaped == normalise(second, collect_ids(second, {}))
    assert shaped["logs"]["container"] == [{"line": "256 SHA256:FINGERPRINT root@<id0> (ED25519)"}]
    assert shaped["msg"] == 'last container line: "256 SHA256:FINGERPRINT root@<id0> (ED25519)" (TIME)'
    other_line = failed("qrs789tuv", "Qa1vFnvgho2biBHhGwTP2oL0Y11dq8qRHRmBr7ztVFg", "2026-12-04T07:05:00.000001Z")
    other_line["logs"]["container"][0]["line"] = "Model loaded."
    assert shaped != normalise(other_line, collect_ids(other_line, {}))

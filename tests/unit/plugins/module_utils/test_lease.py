"""A pod's lease and utilization (``_vocab/podstate``'s lease section): the env contract both ways, the deadline
and cost arithmetic, the idle history, and the option rules; hypothesis for the parsers."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ansible_collections.runpod.cloud.plugins.module_utils._vocab import podstate as ps

CREATED = "2026-01-01T00:00:00Z"
T0 = ps.created_epoch(CREATED)
HOUR = 3600


def lease(**options):
    return ps.from_env(ps.options_env(options))


# -- the env contract ------------------------------------------------------------------------------------------


def test_options_become_the_documented_env_names_in_whole_seconds():
    assert ps.options_env({"stop_after": "1h", "terminate_after": "1d", "idle_stop_after": "90s"}) == {
        "RUNPOD_CLOUD_STOP_AFTER": "3600", "RUNPOD_CLOUD_TERMINATE_AFTER": "86400",
        "RUNPOD_CLOUD_IDLE_STOP_AFTER": "90", "RUNPOD_CLOUD_IDLE_BELOW": "5"}
    assert ps.options_env({"idle_stop_after": 600, "idle_below": 20})["RUNPOD_CLOUD_IDLE_BELOW"] == "20"
    assert ps.options_env({"stop_after": "1.9s"}) == {"RUNPOD_CLOUD_STOP_AFTER": "1"}
    assert ps.options_env({}) == {} and ps.options_env({"stop_after": None}) == {}


@given(stop=st.none() | st.integers(1, 10**7), extra=st.none() | st.integers(1, 10**7),
       idle=st.none() | st.integers(1, 10**7), below=st.none() | st.integers(1, 100))
def test_what_the_options_write_the_env_reads_back(stop, extra, idle, below):
    terminate = None if extra is None else (stop or 0) + extra
    options = {"stop_after": stop, "terminate_after": terminate, "idle_stop_after": idle,
               "idle_below": below if idle else None}
    terms = ps.from_env(ps.options_env(options))
    if not (stop or terminate or idle):
        assert terms is None
        return
    assert (terms["stop_after"], terms["terminate_after"], terms["idle_stop_after"]) == (stop, terminate, idle)
    assert terms["idle_below"] == ((below or 5) if idle else None)


@given(st.dictionaries(st.sampled_from([*ps.ENV.values(), "OTHER"]), st.text(max_size=12)))
def test_any_env_reads_as_no_lease_or_positive_whole_terms(env):
    terms = ps.from_env(env)
    if terms is None:
        return
    assert any(terms[option] for option in ps.DURATIONS)
    assert all(value is None or (isinstance(value, int) and value > 0) for value in terms.values())
    assert (terms["idle_below"] is None) == (terms["idle_stop_after"] is None)
    assert terms["idle_below"] is None or 1 <= terms["idle_below"] <= 100


def test_a_pod_without_the_env_names_has_no_lease():
    assert ps.from_env({"PUBLIC_KEY": "k", "STOP_AFTER": "60"}) is None
    assert ps.from_env(None) is None
    assert ps.from_env({"RUNPOD_CLOUD_STOP_AFTER": "-5", "RUNPOD_CLOUD_TERMINATE_AFTER": "1h"}) is None


@given(st.integers(0, 4 * 10**9))
def test_created_at_reads_back_what_utc_text_writes(epoch):
    assert ps.created_epoch(ps.utc_text(epoch)) == epoch


@pytest.mark.parametrize("options, text", [
    ({"stop_after": 0}, 'stop_after: invalid duration "0": must be positive'),
    ({"stop_after": "-1h"}, "stop_after: invalid duration"),
    ({"terminate_after": "soon"}, "terminate_after: invalid duration"),
    ({"idle_stop_after": "0.5s"}, "a lease counts whole seconds"),
    ({"stop_after": "2h", "terminate_after": "2h"}, "terminate_after (7200s) must be after stop_after (7200s)"),
    ({"stop_after": "2h", "terminate_after": "1h"}, "must be after stop_after"),
    ({"idle_stop_after": "1h", "idle_below": 0}, "idle_below is the GPU utilization percent (1 to 100)"),
    ({"idle_stop_after": "1h", "idle_below": 101}, "Got 101"),
    ({"idle_below": 10}, "it needs idle_stop_after"),
    ({"stop_after": "1h", "state": "absent"}, "cannot apply to a pod this deletes"),
])
def test_refusals(options, text):
    with pytest.raises(ValueError) as caught:
        ps.options_env(options)
    assert text in str(caught.value)


# -- deadlines and costs ---------------------------------------------------------------------------------------


def describe(terms, now, status="RUNNING", cost=0.72, created=CREATED):
    return ps.describe_lease(terms, created, status, cost, now)


def test_a_running_pod_is_stopped_first_and_expires_at_its_deadline():
    terms = lease(stop_after="1h", terminate_after="3h")
    before = describe(terms, T0 + 1800)
    assert (before["action"], before["deadline"], before["expired"], before["seconds_left"]) == (
        "stop", "2026-01-01T01:00:00Z", False, 1800)
    assert before["cost_so_far"] == pytest.approx(0.36) and before["cost_to_deadline"] == pytest.approx(0.36)
    assert describe(terms, T0 + HOUR - 1)["expired"] is False
    at = describe(terms, T0 + HOUR)
    assert at["expired"] is True and at["seconds_left"] == 0 and at["cost_to_deadline"] == 0


def test_after_the_stop_the_terminate_deadline_is_next_and_wins_when_both_passed():
    terms = lease(stop_after="1h", terminate_after="3h")
    stopped = describe(terms, T0 + 2 * HOUR, status="EXITED", cost=0.0)
    assert (stopped["action"], stopped["deadline"], stopped["expired"]) == ("terminate", "2026-01-01T03:00:00Z", False)
    late = describe(terms, T0 + 4 * HOUR)  # no controller ran in between: the pod still runs
    assert (late["action"], late["expired"]) == ("terminate", True)


def test_a_stopped_pod_with_only_stop_after_has_nothing_due_and_unreadable_ages_never_expire():
    done = describe(lease(stop_after="1h"), T0 + 2 * HOUR, status="EXITED")
    assert (done["action"], done["deadline"], done["expired"], done["seconds_left"]) == (None, None, False, None)
    unknown = describe(lease(stop_after="1h"), T0 + 2 * HOUR, created=None)
    assert unknown["expired"] is False and unknown["cost_so_far"] is None
    assert describe(lease(idle_stop_after="1h"), T0)["action"] is None
    assert describe(None, T0) is None


# -- utilization and idle --------------------------------------------------------------------------------------


def test_utilization_reads_runpods_runtime_and_nothing_when_not_running():
    runtime = {"gpus": [{"util": 87, "memoryUtil": 45}, {"util": "x"}, None], "cpu": {"util": 12}, "memory": 3}
    assert ps.utilization(runtime) == {"gpus": [{"util": 87, "memory_util": 45}, {"util": None, "memory_util": None},
                                                {"util": None, "memory_util": None}], "cpu": 12, "memory": None}
    assert ps.utilization(None) is None and ps.utilization({}) is None


def usage(*gpus):
    return {"gpus": [{"util": util} for util in gpus]}


def test_idle_is_tracked_across_readings_and_a_busy_reading_starts_over():
    terms = lease(idle_stop_after="60s", idle_below=10)
    assert ps.idle_due(terms, usage(0, 9), None, 100) == (False, 100)
    assert ps.idle_due(terms, usage(0, 9), 100, 159) == (False, 100)
    assert ps.idle_due(terms, usage(0, 9), 100, 160) == (True, 100)
    assert ps.idle_due(terms, usage(0, 10), 100, 170) == (False, None)  # one GPU at the threshold is busy
    assert ps.idle_due(terms, usage(), 100, 170) == (False, None)  # no readings: no evidence
    assert ps.idle_due(terms, {"gpus": [{"util": None}]}, 100, 170) == (False, None)
    assert ps.idle_due(lease(stop_after="1h"), usage(0), 0, 10**6)[0] is False  # no idle_stop_after: never due


@given(st.lists(st.tuples(st.booleans(), st.integers(1, 50)), max_size=30))
def test_idle_is_due_exactly_when_every_reading_for_idle_stop_after_was_idle(readings):
    terms = lease(idle_stop_after="100s")
    now, since, start = 0, None, None
    for idle, step in readings:
        now += step
        start = (now if start is None else start) if idle else None
        due, since = ps.idle_due(terms, usage(0 if idle else 50), since, now)
        assert since == start and due == (start is not None and now - start >= 100)

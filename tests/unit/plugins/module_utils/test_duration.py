"""Duration parser: reference §8 cases, the collection's digit-string rule, and properties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ansible_collections.runpod.cloud.plugins.module_utils._vocab.duration import (
    MAX_SECONDS,
    DurationError,
    format_duration,
    format_elapsed,
    parse,
)


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("90s", 90),
        ("10m", 600),
        ("2h", 7200),
        ("1h30m", 5400),
        ("1.5h", 5400),
        ("7d", 7 * 86400),
        ("1d", 86400),
        ("106751d", 106751 * 86400),
        ("500ms", 0.5),
        ("1500us", 0.0015),
        ("1500\u00b5s", 0.0015),
        ("2000000ns", 0.002),
        (".5s", 0.5),
        ("1.s", 1),
        ("+5m", 300),
        ("600", 600),
        ("5", 5),
        (600, 600),
        (2.5, 2.5),
    ],
)
def test_accepted_forms(text, seconds):
    assert parse(text) == pytest.approx(seconds)


def test_digit_string_is_seconds_unlike_the_reference():
    # Templated integers arrive as strings; the reference rejects bare "10", the collection reads seconds.
    assert parse("10") == 10.0


@pytest.mark.parametrize("text", ["0h", "-2h", "0s", "0d", "-1d", "0", 0, -5, -0.5, "0.0s", "-1h30m"])
def test_non_positive_rejected(text):
    with pytest.raises(DurationError, match=r'^invalid duration "%s": must be positive, e\.g\. 30m$' % text):
        parse(text)


@pytest.mark.parametrize("text", ["106752d", "200000d", "9999999999d", "2562048h", "9223286401", 106751 * 86400 + 1])
def test_out_of_range_rejected(text):
    with pytest.raises(DurationError, match=r'^invalid duration "%s": out of range \(max 106751d\)$' % text):
        parse(text)


@pytest.mark.parametrize(
    "text", ["abc", "", "abcd", "1.5d", "later", "10x", "1d12h", " 10m", "10m ", "h", "1h-30m", "-", "..s", "1e3s"]
)
def test_garbage_rejected_with_example(text):
    with pytest.raises(DurationError) as info:
        parse(text)
    message = str(info.value)
    assert message.startswith('invalid duration "%s": supported formats are e.g. 30m, 2h, 7d' % text)
    assert "600" in message


@pytest.mark.parametrize("value", [True, False, None, [10], {"s": 1}, float("nan")])
def test_non_duration_types_rejected(value):
    with pytest.raises(DurationError, match="supported formats"):
        parse(value)


def test_infinite_float_is_out_of_range():
    with pytest.raises(DurationError, match="out of range"):
        parse(float("inf"))


def test_error_is_a_value_error_naming_the_value():
    with pytest.raises(ValueError) as info:
        parse("later")
    assert info.value.value == "later"
    assert '"later"' in str(info.value)


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (600, "10m0s"),
        (5400, "1h30m0s"),
        (90, "1m30s"),
        (12, "12s"),
        (0, "0s"),
        (1.5, "1.5s"),
        (0.5, "500ms"),
        (0.0015, "1.5ms"),
        (0.0000015, "1.5\u00b5s"),
        (0.000000005, "5ns"),
        (7 * 86400, "168h0m0s"),
        (-90, "-1m30s"),
    ],
)
def test_format_duration_go_style(seconds, text):
    assert format_duration(seconds) == text


def test_format_elapsed_rounds_half_up_to_whole_seconds():
    assert format_elapsed(0.4) == "0s"
    assert format_elapsed(0.5) == "1s"
    assert format_elapsed(64.6) == "1m5s"


whole_seconds_in_range = st.integers(min_value=1, max_value=MAX_SECONDS)


@given(whole_seconds_in_range)
def test_round_trip_whole_seconds(seconds):
    assert parse(format_duration(seconds)) == seconds


@given(st.integers(min_value=1, max_value=10**9 * 1000))
def test_round_trip_milliseconds(millis):
    seconds = millis / 1000
    assert parse(format_duration(seconds)) == pytest.approx(seconds, rel=0, abs=1e-9)


@given(whole_seconds_in_range)
def test_digit_strings_and_ints_agree(seconds):
    assert parse(str(seconds)) == parse(seconds) == float(seconds)


@given(st.integers(min_value=1, max_value=106751))
def test_days_equal_hours(days):
    assert parse("%dd" % days) == parse("%dh" % (days * 24))


@given(st.integers(min_value=1, max_value=10**6), st.integers(min_value=1, max_value=10**6))
def test_monotonic_in_each_unit(smaller, delta):
    larger = smaller + delta
    for unit in ("s", "m", "h"):
        assert parse("%d%s" % (smaller, unit)) < parse("%d%s" % (larger, unit))


@given(st.integers(min_value=0, max_value=10**6), st.integers(min_value=0, max_value=59), st.integers(0, 59))
def test_combinations_add_up(hours, minutes, secs):
    total = hours * 3600 + minutes * 60 + secs
    text = "%dh%dm%ds" % (hours, minutes, secs)
    if total == 0:
        with pytest.raises(DurationError, match="must be positive"):
            parse(text)
    else:
        assert parse(text) == total


@given(st.integers(min_value=1, max_value=10**12), st.sampled_from(["s", "m", "h", "d", ""]))
def test_negatives_always_rejected_as_not_positive(number, unit):
    with pytest.raises(DurationError, match="must be positive"):
        parse("-%d%s" % (number, unit) if unit else -number)


@given(st.integers(min_value=106752, max_value=10**15))
def test_every_day_count_above_the_limit_is_out_of_range(days):
    with pytest.raises(DurationError, match=r"out of range \(max 106751d\)"):
        parse("%dd" % days)


@given(st.text(alphabet="abcefgijklnopqrtvwxyz !?,;", min_size=0, max_size=12))
def test_text_without_digits_or_units_is_garbage(text):
    with pytest.raises(DurationError, match="supported formats"):
        parse(text)

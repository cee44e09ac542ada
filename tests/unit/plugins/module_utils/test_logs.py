"""RunPod's logs: the SSE parser (property tests), the event reader, masking, and the bounded stream read over
httpx.MockTransport (a stream that never ends, errors, malformed events), with a FakeClock: nothing sleeps."""

from __future__ import annotations

import itertools
import json
import random

import httpx
import pytest
from helpers.fakes import FakeClock, full_backend
from hypothesis import given
from hypothesis import strategies as st

from ansible_collections.runpod.cloud.plugins.module_utils._api.sse import MAX_STREAM_BYTES, read_log_stream
from ansible_collections.runpod.cloud.plugins.module_utils._backend.log_reads import LogReader
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.log_lines import (
    MASK,
    MAX_LINE_CHARS,
    MalformedLogError,
    Masker,
    SSEParser,
    Tails,
    clean_line,
    logs_block,
    quote,
    read_event,
)

API = "https://rest.example.test/v2"
KEY = "rk-secret-api-key-42"

# -- the SSE parser -----------------------------------------------------------------------------------------------

# Field values: no line breaks (a value ends at one); data may be empty, may start with a colon or a space.
VALUE = st.text(alphabet=st.characters(blacklist_characters="\r\n", blacklist_categories=("Cs",)), max_size=30)
EVENT_ID = st.one_of(st.none(), VALUE.filter(lambda text: "\x00" not in text))
EVENT = st.tuples(EVENT_ID, st.lists(VALUE, min_size=1, max_size=3))


def _serialise(events, breaks, comments):
    out = []
    for (event_id, data), comment in zip(events, itertools.cycle(comments or [None]), strict=False):
        if comment is not None:
            out.append(f":{comment}")
        if event_id is not None:
            out.append(f"id: {event_id}")
        out.extend(f"data: {line}" for line in data)
        out.append("")
    text, previous = "", ""
    for index, line in enumerate(out):
        end = breaks[index % len(breaks)]
        if previous == "\r" and line == "" and end == "\n":
            end = "\r\n"  # CR then LF would be one CRLF break, not an empty line
        text += line + end
        previous = end
    return text


@given(
    events=st.lists(EVENT, max_size=8),
    breaks=st.lists(st.sampled_from(["\n", "\r\n", "\r"]), min_size=1, max_size=4),
    comments=st.lists(st.one_of(st.none(), VALUE), max_size=3),
    cuts=st.lists(st.integers(min_value=0, max_value=400), max_size=12),
)
def test_the_parser_reads_every_event_whatever_the_line_breaks_and_chunks(events, breaks, comments, cuts):
    text = _serialise(events, breaks, comments)
    parser = SSEParser()
    got = []
    start = 0
    for cut in [*sorted({min(cut, len(text)) for cut in cuts}), len(text)]:
        got.extend(parser.feed(text[start:cut]))
        start = cut
    # A CR that ends the whole text may still be half of a CRLF: the event it ends comes with the next byte.
    got.extend(parser.feed("\n") if text.endswith("\r") else [])
    expected, last_id = [], None
    for event_id, data in events:
        last_id = event_id if event_id is not None else last_id
        expected.append((last_id, "message", "\n".join(data)))
    assert got == expected


def test_the_parser_follows_the_field_rules():
    parser = SSEParser()
    events = parser.feed("data:no space\ndata:  two spaces\nevent: log\nid: a\x00b\nretry: 5\nbogus\n\n"
                         "id: 7\n\ndata: after an id-only event\n\n")
    assert events == [(None, "log", "no space\n two spaces"), ("7", "message", "after an id-only event")]
    assert parser.feed("data: unfinished") == []  # no blank line yet: not an event


# -- events, masking, lines ---------------------------------------------------------------------------------------


def test_an_event_must_be_the_documented_payload():
    assert read_event('{"ts": "t", "source": "system", "line": "x", "more": 1}') == {
        "ts": "t", "source": "system", "line": "x"}
    for bad in ("not json", "[1]", '{"ts": "t", "source": "system"}', '{"ts": 1, "source": "system", "line": ""}',
                '{"ts": "t", "source": "kernel", "line": "x"}'):
        with pytest.raises(MalformedLogError):
            read_event(bad)


def test_masking_hides_each_secret_longest_first_and_keeps_short_values():
    key_file = "-----BEGIN KEY-----\nMIIEsecretbody\n-----END KEY-----"
    mask = Masker(["hunter2-long", "hunter2", "abc", None, 42, key_file])
    assert mask("pw=hunter2-long and hunter2") == f"pw={MASK} and {MASK}"
    assert mask("abc is too short to mask") == "abc is too short to mask"
    assert mask("MIIEsecretbody") == MASK  # one line of a multi-line secret, printed on its own
    assert MASK not in Masker([])("nothing to hide")


ONE_LINE_SECRET = st.text(min_size=4, max_size=20).filter(lambda text: "\n" not in text and "\r" not in text)


@given(secret=ONE_LINE_SECRET, before=st.text(max_size=20), after=st.text(max_size=20))
def test_a_masked_line_never_shows_the_secret(secret, before, after):
    line = clean_line(before + secret + after, Masker([secret]))
    assert secret not in line or secret in clean_line(before, lambda text: text) + clean_line(after, lambda t: t)


def test_a_line_is_escaped_and_cut_after_masking():
    secret = "s3cr3t-value"
    long_line = "x" * (MAX_LINE_CHARS - 5) + secret
    cleaned = clean_line(long_line, Masker([secret]))
    assert len(cleaned) == MAX_LINE_CHARS and "s3cr" not in cleaned  # masked before the cut: no half secret
    assert clean_line("\x1b[31mred\x1b[0m\x00\tok\r\n", str) == "\\x1b[31mred\\x1b[0m\\x00\tok"


def test_tails_keep_the_newest_lines_of_each_source():
    tails = Tails(2, str)
    for index in range(5):
        tails.add({"ts": f"t{index}", "source": "container" if index % 2 else "system", "line": f"l{index}"})
    assert tails.lines("system") == [{"ts": "t2", "line": "l2"}, {"ts": "t4", "line": "l4"}]
    assert [entry["line"] for entry in tails.lines("container")] == ["l1", "l3"]


def test_the_quote_names_the_newest_container_line_else_system_else_why():
    block = logs_block([{"ts": "t1", "line": "old"}, {"ts": "t2", "line": "ImportError: x"}],
                       [{"ts": "t3", "line": "sys"}])
    assert quote(block) == 'last container line: "ImportError: x" (t2)'
    assert quote(logs_block([], [{"ts": "t3", "line": "pulling"}])).endswith('"pulling" (t3)')
    assert quote(logs_block(unavailable="forbidden (forbidden)")) == "logs unavailable: forbidden (forbidden)"


# RunPod's start script (setup_ssh in runpod/containers' start.sh), as the simulator prints it.
HOST_KEY_BLOCK = [
    "ED25519 key fingerprint:", "256 SHA256:QeBDED+o19ELQNdZJCLtEOtgnHyldJlPwqxMJqE/DfU root@c0ffee (ED25519)",
    "SSH host keys:", "Key: /etc/ssh/ssh_host_ed25519_key.pub",
    "256 SHA256:QeBDED+o19ELQNdZJCLtEOtgnHyldJlPwqxMJqE/DfU root@c0ffee (ED25519)",
    "Key: /etc/ssh/ssh_host_rsa_key.pub", "3072 SHA256:Mcl7/eDH+ZLL/4JKLG5cdYCswZ/E0qS1Ztznz6QXufU root@c0ffee (RSA)",
]


@pytest.mark.parametrize("cut", range(1, len(HOST_KEY_BLOCK) + 1))
def test_the_quote_never_names_a_line_of_the_host_key_block(cut):
    # A failed wait's "last container line" is what the container said, not a fingerprint its start script printed.
    lines = [{"ts": "t0", "line": "python: can't open file '/app/train.py'"}]
    lines += [{"ts": f"t{index}", "line": line} for index, line in enumerate(HOST_KEY_BLOCK[:cut], 1)]
    assert quote(logs_block(lines)) == "last container line: \"python: can't open file '/app/train.py'\" (t0)"
    # An ordinary line that mentions SSH is still quoted.
    lines.append({"ts": "t9", "line": "Starting SSH daemon on port 22"})
    assert quote(logs_block(lines)) == 'last container line: "Starting SSH daemon on port 22" (t9)'


# -- the bounded read ------------------------------------------------------------------------------------------------


def _event(index, source="container", line=None):
    payload = {"ts": f"2026-06-01T12:00:{index % 60:02d}Z", "source": source, "line": line or f"line {index}"}
    return f"id: {payload['ts']}\ndata: {json.dumps(payload)}\n\n".encode()


class Stream:
    """A MockTransport handler answering every log read with ``chunks()``; each chunk read moves the clock."""

    def __init__(self, clock, chunks, status=200, media="text/event-stream", step=0.05):
        self.clock, self.chunks, self.status, self.media, self.step = clock, chunks, status, media, step
        self.served = 0
        self.requests = []

    def body(self):
        for chunk in self.chunks():
            self.served += 1
            self.clock.current += self.step
            yield chunk

    def __call__(self, request):
        self.requests.append(request)
        if self.status != 200:
            return httpx.Response(self.status, json={"title": "Nope", "detail": f"denied, key {KEY}"})
        return httpx.Response(200, headers={"content-type": self.media}, content=self.body())


def _backend(handler, clock):
    return full_backend({"api_key": KEY, "api_url": API}, transport=httpx.MockTransport(handler), clock=clock,
                        rng=random.Random(1))


def _read(handler, clock, **extra):
    backend = _backend(handler, clock)
    settings = {"tail": 20, "deadline": clock.now() + 5.0, "clock": clock, "mask": Masker([KEY])}
    settings.update(extra)
    return read_log_stream(backend.client, "pods/p1/logs", **settings)


def test_a_stream_that_never_ends_is_cut_at_the_deadline():
    clock = FakeClock()
    handler = Stream(clock, lambda: (_event(index) for index in range(100000)))
    block = _read(handler, clock)
    # 5 s of 0.05 s chunks: about 100 events read, then the reader stopped by itself.
    assert 90 <= handler.served <= 110
    assert block["unavailable"] is None
    assert [entry["line"] for entry in block["container"]][-1] == f"line {handler.served - 1}"
    assert len(block["container"]) == 20


def test_a_stream_that_only_keeps_alive_ends_once_quiet():
    clock = FakeClock()

    def chunks():
        yield _event(1, "system", "pulling")
        while True:
            yield b": keep-alive\n\n"

    handler = Stream(clock, chunks, step=0.1)
    block = _read(handler, clock, quiet=1.0)
    assert block["system"] == [{"ts": "2026-06-01T12:00:01Z", "line": "pulling"}]
    assert handler.served <= 12  # a second of comments after the last event, not the whole 5 s budget


def test_a_read_ends_at_the_line_its_caller_waited_for_not_when_the_stream_goes_quiet():
    clock = FakeClock()

    def chunks():
        yield _event(1, line="booting")
        yield _event(2, line="the line")
        while True:
            yield b": keep-alive\n\n"

    handler = Stream(clock, chunks, step=0.1)
    seen = []
    block = _read(handler, clock, quiet=1.0, stop=lambda entry: seen.append(entry) or entry["line"] == "the line")
    assert [entry["line"] for entry in block["container"]] == ["booting", "the line"]
    assert seen == block["container"]  # every kept line, masked and cleaned, in order
    assert handler.served == 2  # not a chunk more: no second of quiet waited for


def test_a_stop_that_never_answers_true_leaves_the_quiet_rule_in_charge():
    clock = FakeClock()

    def chunks():
        yield _event(1, line="booting")
        while True:
            yield b": keep-alive\n\n"

    handler = Stream(clock, chunks, step=0.1)
    _read(handler, clock, quiet=1.0, stop=lambda entry: False)
    assert 10 <= handler.served <= 12


def test_a_stream_that_sends_too_much_is_cut_at_the_byte_bound():
    clock = FakeClock()
    handler = Stream(clock, lambda: (_event(index, line="x" * 4000) for index in itertools.count()), step=0.0)
    block = _read(handler, clock)
    assert handler.served * 4000 < MAX_STREAM_BYTES * 1.1
    assert len(block["container"]) == 20


def test_the_read_asks_for_the_tail_and_source_and_masks_the_api_key():
    clock = FakeClock()
    handler = Stream(clock, lambda: iter([_event(1, line=f"key is {KEY}"), _event(2, "system", "other source")]))
    block = _read(handler, clock, tail=7, source="container")
    assert block["container"] == [{"ts": "2026-06-01T12:00:01Z", "line": f"key is {MASK}"}]
    assert block["system"] == []  # a server that ignored ``source``: the other source is left out
    request = handler.requests[0]
    assert request.url.params["tail"] == "7" and request.url.params["source"] == "container"
    assert request.headers["accept"] == "text/event-stream"


@pytest.mark.parametrize(("status", "code"), [(404, "not_found"), (401, "unauthorized"), (503, "server_error")])
def test_an_error_answer_gives_the_reason_and_never_the_key(status, code):
    clock = FakeClock()
    block = _read(Stream(clock, lambda: iter(()), status=status), clock)
    assert block["container"] == [] and block["system"] == []
    assert block["unavailable"].endswith(f"({code})")
    assert KEY not in block["unavailable"]


def test_a_malformed_event_or_a_wrong_media_type_makes_the_logs_unavailable():
    clock = FakeClock()
    bad = Stream(clock, lambda: iter([_event(1), b'data: {"ts": "t", "sou\n\n']))
    assert _read(bad, clock)["unavailable"].startswith("malformed log event: an event's data is not JSON")
    assert _read(bad, clock)["container"] == []
    json_answer = Stream(clock, lambda: iter([b"{}"]), media="application/json")
    assert "not text/event-stream" in _read(json_answer, clock)["unavailable"]


def test_a_network_error_is_a_reason_not_an_exception():
    def refuse(request):
        raise httpx.ConnectError(f"connection refused for {KEY}")

    block = _read(refuse, FakeClock())
    assert block["unavailable"].startswith("network error (ConnectError)") and KEY not in block["unavailable"]


def test_a_spent_budget_reads_nothing():
    clock = FakeClock()
    handler = Stream(clock, lambda: iter([_event(1)]))
    block = _read(handler, clock, deadline=clock.now() - 1)
    assert handler.requests == [] and "budget" in block["unavailable"]


def test_the_reader_reads_each_source_of_each_pod_and_shares_one_deadline():
    clock = FakeClock()

    def handler(request):
        source = request.url.params["source"]
        pod = request.url.path.split("/")[3]
        if pod == "gone":
            return httpx.Response(404, json={"detail": "pod not found"})
        return httpx.Response(200, headers={"content-type": "text/event-stream"},
                              content=iter([_event(1, source, f"{pod} {source}")]))

    reader = LogReader(_backend(handler, clock), ["env-secret-value"], clock=clock, concurrency=1)
    blocks = reader.pods(["a", "b", "gone"], 5)
    assert blocks["a"]["container"][0]["line"] == "a container" and blocks["a"]["system"][0]["line"] == "a system"
    assert blocks["b"]["unavailable"] is None
    # Both sources failed the same way: the reason once.
    assert blocks["gone"]["unavailable"] == "pod not found (not_found)"


def test_the_reader_ends_each_pods_read_by_its_own_stop():
    clock = FakeClock()
    served = {}

    def handler(request):
        pod = request.url.path.split("/")[3]

        def body():
            for index in itertools.count():
                served[pod] = index + 1
                clock.current += 0.01
                yield _event(index, line=f"{pod} {index}")

        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body())

    reader = LogReader(_backend(handler, clock), clock=clock, concurrency=1)
    blocks = reader.pods(["a", "b"], 50, ("container",), {"a": lambda entry: entry["line"] == "a 3"})
    assert served["a"] == 4 and blocks["a"]["container"][-1]["line"] == "a 3"
    assert served["b"] > 100  # no stop: read until the budget's deadline


def test_a_reader_bug_is_a_reason_not_a_failure(monkeypatch):
    from ansible_collections.runpod.cloud.plugins.module_utils._backend import log_reads as backend_logs

    def broken(*args, **kwargs):
        raise RuntimeError("bug")

    monkeypatch.setattr(backend_logs, "read_log_stream", broken)
    reader = LogReader(_backend(lambda request: httpx.Response(200), FakeClock()), clock=FakeClock())
    assert reader.pods(["a"], 5)["a"]["unavailable"] == "reading the logs failed (RuntimeError)"

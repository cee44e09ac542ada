# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The parsers of roles/hosts/files/runpod_cloud_watchdog.sh, through its ``status``: the pod's ``createdAt`` as the
API serves it (RFC 3339, any offset or fraction) and nvidia-smi's utilization lines, against Python's reading of the
same text. The API is a loopback listener of the test's own; the watchdog's lease decisions run in
tests/simulator/tests/test_watchdog_in_pods.py."""

from __future__ import annotations

import json
import subprocess
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from helpers.paths import REPO_ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

SCRIPT = REPO_ROOT / "roles" / "hosts" / "files" / "runpod_cloud_watchdog.sh"
KEY = "rpa_pod_unit"
ANSWER: dict[str, bytes] = {"body": b"{}"}


class _Api(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        ok = self.path == "/v2/pods/p1" and self.headers.get("Authorization") == f"Bearer {KEY}"
        body = ANSWER["body"] if ok else b'{"title": "Forbidden"}'
        self.send_response(200 if ok else 403)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args: object) -> None:
        pass


@pytest.fixture(scope="module")
def pod_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Api)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    work = tmp_path_factory.mktemp("pod")
    smi = work / "bin" / "nvidia-smi"
    smi.parent.mkdir()
    smi.write_text('#!/bin/sh\n[ "$*" = "--query-gpu=utilization.gpu --format=csv,noheader,nounits" ] || exit 6\n'
                   'cat "$HOME/smi.out"\n')
    smi.chmod(0o755)
    yield {"PATH": f"{smi.parent}:/usr/bin:/bin", "HOME": str(work), "RUNPOD_POD_ID": "p1", "RUNPOD_API_KEY": KEY,
           "RUNPOD_CLOUD_API_URL": f"http://127.0.0.1:{server.server_port}/v2"}
    server.shutdown()


def status(env: dict[str, str], smi_out: str = "") -> dict[str, str]:
    Path(env["HOME"], "smi.out").write_text(smi_out)
    done = subprocess.run(["sh", str(SCRIPT), "status"], env=env, capture_output=True, text=True, timeout=30,
                          check=True)
    return dict(part.split("=", 1) for part in done.stdout.split())


ZONES = st.sampled_from([UTC, timezone(timedelta(hours=2)), timezone(-timedelta(hours=5, minutes=30))])


@settings(max_examples=25, deadline=None)
@given(moment=st.datetimes(datetime(2020, 1, 1), datetime(2040, 1, 1), timezones=ZONES),
       digits=st.sampled_from([0, 3, 6]), spaced=st.booleans())
def test_created_at_is_read_as_the_instant_the_api_names(pod_env, moment, digits, spaced):
    offset = moment.utcoffset()
    zone = "Z" if not offset else moment.strftime("%z")[:3] + ":" + moment.strftime("%z")[3:]
    fraction = f".{moment.microsecond:06d}"[: digits + 1] if digits else ""
    stamp = moment.strftime("%Y-%m-%dT%H:%M:%S") + fraction + zone
    pod = {"id": "p1", "name": "x", "createdAt": stamp, "env": {"A": "createdAt"}, "startedAt": None}
    ANSWER["body"] = json.dumps(pod, separators=(", ", ": ") if spaced else (",", ":")).encode()
    assert status(pod_env)["created"] == str(int(moment.replace(microsecond=0).timestamp()))


def test_a_refused_read_is_unreadable_not_a_time(pod_env):
    assert status({**pod_env, "RUNPOD_API_KEY": "rpa_pod_other"})["created"] == "unreadable"


LINE = st.one_of(st.integers(0, 100).map(str), st.integers(0, 100).map(lambda n: f" {n} "),
                 st.sampled_from(["[N/A]", "[Not Supported]", "", "ERR!"]))


@settings(max_examples=25, deadline=None)
@given(lines=st.lists(LINE, max_size=8))
def test_the_busiest_gpu_is_the_largest_reported_percent(pod_env, lines):
    numbers = [int(line) for line in lines if line.strip().isdigit()]
    expected = str(max(numbers)) if numbers else ""  # nothing: no idle decision
    assert status(pod_env, "".join(f"{line}\n" for line in lines))["busiest_gpu"] == expected

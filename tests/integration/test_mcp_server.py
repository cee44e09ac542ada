# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""RunPod's own MCP server (@runpod/mcp-server, pinned in tests/sdk-js, ``make sdk-js``) against the simulator over
stdio: its REST-v2 read tools answer without an error, and its pod list answers
(4.0.0 reads the first page only). Every address
outside the machine it knows (GraphQL, PostHog) points at a closed loopback port (tests/sdk-js/run_mcp.mjs)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

# (RunPod's MCP server against the simulator, no Ansible in it).
pytestmark = pytest.mark.timeout(120)

SDK_JS = Path(__file__).resolve().parents[1] / "sdk-js"
REPO = SDK_JS.parents[1]


def closed_port() -> str:
    """A loopback URL nothing listens on: a request the server should not make fails at once on this machine."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}"


def test_mcp_server_read_tools_answer_and_see_every_pod(sim):
    if not (SDK_JS / "node_modules" / "@runpod" / "mcp-server").is_dir():
        subprocess.run(["make", "--no-print-directory", "-C", str(REPO), "sdk-js"], check=True, timeout=600)
    assert shutil.which("node"), "Node.js is needed (make sysdeps installs it)"
    seeded = set(sim.admin.seed(5, name_prefix="mcp-"))
    for pod_id in seeded:  # a container line naming its pod: the log tool must read the right stream, parsed
        sim.admin.script_pod_logs(pod_id, lines=[{"at": 0, "source": "container",
                                                  "line": f"mcp check: this is {pod_id}"}])
    env = {k: v for k, v in os.environ.items() if not k.startswith("POSTHOG")}
    env["RUNPOD_API_KEY"] = sim.api_key
    base = sim.urls["api_v2"].removesuffix("/v2")
    completed = subprocess.run(
        ["node", "run_mcp.mjs", base, sim.urls["serverless"], closed_port()],
        cwd=SDK_JS,
        env=env,
        capture_output=True,
        text=True,
        timeout=90,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    lines = [line for line in completed.stdout.splitlines() if line.startswith("RESULT ")]
    assert lines, completed.stdout + completed.stderr
    summary = json.loads(lines[-1][len("RESULT ") :])
    assert {"list-pods", "get-pod", "list-endpoints", "list-templates", "list-network-volumes"} <= set(summary["tools"])
    errors = {name: call["payload"] for name, call in summary["calls"].items() if call["isError"]}
    assert not errors, errors
    pods = summary["calls"]["list-pods"]["payload"]
    listed = {pod["id"] for pod in (pods if isinstance(pods, list) else pods["pods"])}
    # @runpod/mcp-server 4.0.0's list-pods reads one page and never follows nextCursor (its generic tool takes
    # only includeClusterPods): at the suite's 2-a-page it sees the first page. A defect of the server, not the
    # simulator; when a release pages, this becomes `seeded <= listed`.
    assert listed and listed <= seeded, (listed, pods)
    assert {"get-pod", "list-endpoints", "list-templates", "list-network-volumes"} <= set(summary["calls"])
    # stream-pod-logs read the first listed pod's live stream (which never closes) to its deadline and parsed the
    # simulator's events: the pod's own line, and no other pod's.
    shown = summary["calls"]["get-pod"]["payload"]["id"]
    items = summary["calls"]["stream-pod-logs"]["payload"]["items"]
    lines = [item.get("line") if isinstance(item, dict) else item for item in items]
    assert f"mcp check: this is {shown}" in lines, items
    assert not [line for line in lines if "mcp check" in str(line) and shown not in str(line)], items

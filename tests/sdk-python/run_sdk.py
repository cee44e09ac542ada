# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""runpod-python (pinned in requirements.txt, its own virtualenv) against a runtime API base URL, for the tests in
tests/integration/test_endpoint_job_sdks.py: ``python run_sdk.py <baseUrl> <endpointId> <mode> <input JSON>``, the
API key from RUNPOD_API_KEY. mode runSync: ``Endpoint.run_sync()``; mode run: ``Endpoint.run()`` then ``status()``
until the job ends, then ``output()``. Prints one line ``RESULT <json>`` (the SDK's own answer)."""

from __future__ import annotations

import json
import os
import sys
import time

import runpod

ENDED = ("COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT")


def main(base_url: str, endpoint_id: str, mode: str, input_json: str) -> None:
    runpod.api_key = os.environ["RUNPOD_API_KEY"]
    runpod.endpoint_url_base = base_url  # read by each new Endpoint's client
    endpoint = runpod.Endpoint(endpoint_id)
    request = {"input": json.loads(input_json)}
    if mode == "runSync":
        result = {"output": endpoint.run_sync(request, timeout=120)}
    else:
        job = endpoint.run(request)
        deadline = time.monotonic() + 120
        while job.status() not in ENDED and time.monotonic() < deadline:
            time.sleep(0.1)
        result = {"output": job.output(), "status": job.status()}
    print("RESULT " + json.dumps(result))


if __name__ == "__main__":
    main(*sys.argv[1:5])

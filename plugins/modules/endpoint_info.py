# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: endpoint_info
short_description: Read RunPod serverless endpoints and their worker health
version_added: 0.1.0
description:
  - List RunPod serverless endpoints, one by O(id), those named O(name), or all of them.
  - Each endpoint comes with the worker counters of its serverless C(/health), its
    current release (version) and how far that release has rolled out to the workers. The reads (one or two
    per endpoint) run concurrently, at most 8 endpoints at a time.
  - An endpoint whose health cannot be read (for example a new endpoint the invoke service does not know yet)
    is still listed, with a null RV(endpoints[].health) and the reason in RV(endpoints[].health_error).
extends_documentation_fragment:
  - runpod.cloud.common.INFO_SELECTION
options:
  logs:
    description:
      - Return the newest O(logs) lines of each log source (C(container), C(system)) of every active worker of
        each selected endpoint, in RV(endpoints[].logs). V(0) reads no logs and lists no workers.
      - The worker lists and the log reads run concurrently, at most 8 at a time; the log reads all end within a
        5 s budget (RunPod's log stream stays open, so each read stops once no line came for a second). A worker
        whose logs cannot be read gets the reason in C(unavailable); the task does not fail for it.
      - The api key is masked (C(********)) in the lines; see
        R(the logs guide,ansible_collections.runpod.cloud.docsite.guide_logs).
    type: int
    default: 0
    version_added: 0.2.0
"""

EXAMPLES = r"""
- name: Read every endpoint with its health
  runpod.cloud.endpoint_info:
  register: all_endpoints

- name: Read one endpoint by name
  runpod.cloud.endpoint_info:
    name: hello
  register: hello_info

- name: Fail when the endpoint has no ready worker
  ansible.builtin.assert:
    that:
      - hello_info.endpoints | length == 1
      - hello_info.endpoints[0].health is not none
      - hello_info.endpoints[0].health.ready + hello_info.endpoints[0].health.running > 0
"""

RETURN = r"""
endpoints:
  description:
    - The endpoints found, each with its health counters.
    - Each element has every key of RV(runpod.cloud.endpoint#module:endpoint) (the same shape, built by the same
      code), plus RV(endpoints[].jobs), RV(endpoints[].health_error), RV(endpoints[].release) and
      RV(endpoints[].rollout).
  returned: always
  type: list
  elements: dict
  sample:
    - id: a1b2c3d4e5f6g7
      name: hello
      template_id: 2k4zq1n8xw
      gpu_pools: [ADA_24]
      workers_min: 1
      workers_max: 3
      health: {ready: 1, running: 0, idle: 1, initializing: 0, throttled: 0, unhealthy: 0}
      jobs: {completed: 3, failed: 0, inProgress: 0, inQueue: 0, retried: 0}
      health_error: null
  contains:
    health:
      description: Worker counters from C(/health); null when the read failed.
      type: dict
      returned: always
      sample: {ready: 1, running: 0, idle: 1, initializing: 0, throttled: 0, unhealthy: 0}
    jobs:
      description: Job counters from C(/health); null when the read failed.
      type: dict
      returned: always
      sample: {completed: 3, failed: 0, inProgress: 0, inQueue: 0, retried: 0}
    health_error:
      description: Why the health read failed (C(<message> (<code>))), else null.
      type: str
      returned: always
      sample: "endpoint not found (not_found)"
    release:
      description:
        - The endpoint's current release (C(version), C(source) V(MANUAL) or V(GIT_BUILD), C(id), C(created_at)).
        - Null when the read failed.
      type: dict
      returned: always
      sample: {version: 3, source: MANUAL, id: 5r9x2m7q, created_at: "2026-06-01T12:10:00Z"}
      version_added: 0.2.0
    rollout:
      description:
        - How far the current release has replaced the workers - C(in_progress) (a worker still runs an older
          release), C(workers_on_latest), C(workers_total), C(percent_on_latest).
        - Null when the read failed.
      type: dict
      returned: always
      sample: {in_progress: true, workers_on_latest: 1, workers_total: 2, percent_on_latest: 50}
      version_added: 0.2.0
    logs:
      description:
        - With O(logs) above 0, one entry per active worker - C(worker_id), C(status), C(container) and C(system)
          (each a list of C({ts, line}), newest last) and C(unavailable), why they could not be read (null when
          they were). A worker list that could not be read gives one entry with a null C(worker_id).
        - Lines are data, shown as RunPod sent them with secrets masked and control characters escaped.
      type: list
      elements: dict
      returned: when O(logs) is above 0
      sample:
        - worker_id: w1x2y3z4
          status: UNHEALTHY
          container: [{ts: "2026-07-29T21:53:02Z", line: "ModuleNotFoundError: No module named 'vllm'"}]
          system: []
          unavailable: null
      version_added: 0.2.0
"""

from concurrent.futures import ThreadPoolExecutor

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._module.base import RunPodModule, run_module
from ansible_collections.runpod.cloud.plugins.module_utils._module.specs import (
    AUTH_ARGUMENT_SPEC,
    INFO_MUTUALLY_EXCLUSIVE,
    INFO_SELECTION_SPEC,
    argument_spec,
    info_lines,
)
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.shapes import describe_endpoint, describe_release

ARGUMENT_SPEC = argument_spec(
    AUTH_ARGUMENT_SPEC,
    INFO_SELECTION_SPEC,
    logs=dict(type="int", default=0),
)

MAX_CONCURRENT_HEALTH_READS = 8


def read_health(backend, endpoint_id):
    """``(health, release, error)`` for one endpoint (``backend.endpoints.release``: None where a backend has no
    releases); never raises an API error."""
    try:
        release = backend.endpoints.release(endpoint_id)
    except RunPodError:
        release = None  # the release is extra information; health_error reports the health read only
    try:
        return backend.endpoints.health(endpoint_id), release, None
    except RunPodError as error:
        return None, release, f"{error.message} ({error.code})"


def read_all_health(backend, endpoint_ids, max_workers=MAX_CONCURRENT_HEALTH_READS):
    """``{id: (health, error)}`` with the reads made concurrently, at most ``max_workers`` at once."""
    if not endpoint_ids:
        return {}
    with ThreadPoolExecutor(max_workers=max(1, min(max_workers, len(endpoint_ids)))) as pool:
        futures = {endpoint_id: pool.submit(read_health, backend, endpoint_id) for endpoint_id in endpoint_ids}
        return {endpoint_id: future.result() for endpoint_id, future in futures.items()}


class EndpointInfoModule(RunPodModule):
    result_key = "endpoints"
    resource_kind = "endpoint"

    def run(self):
        lines = info_lines(self)
        backend = self.backend
        endpoints = self.select(backend.endpoints.get, backend.endpoints.find, backend.endpoints.list)
        health = read_all_health(self.backend, [endpoint.id for endpoint in endpoints])
        ids = [endpoint.id for endpoint in endpoints]
        logs = {}
        if lines:  # the log readers load only when logs are asked for (import cost)
            from ansible_collections.runpod.cloud.plugins.module_utils._module.log_report import (
                endpoint_logs,
                read_workers,
            )

            logs = endpoint_logs(self, ids, read_workers(backend, ids))
        described = []
        for endpoint in endpoints:
            counts, release, error = health[endpoint.id]
            entry = describe_endpoint(endpoint, self.backend.serverless_url, counts)
            entry["release"], entry["rollout"] = describe_release(release)
            entry["jobs"] = dict(counts.jobs or {}) if counts is not None else None
            entry["health_error"] = error
            if lines:
                entry["logs"] = logs[endpoint.id]
            described.append(entry)
        self.exit(endpoints=described)


def main():
    module = AnsibleModule(
        argument_spec=ARGUMENT_SPEC,
        mutually_exclusive=INFO_MUTUALLY_EXCLUSIVE,
        supports_check_mode=True,
    )
    run_module(EndpointInfoModule, module)


if __name__ == "__main__":
    main()

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
  builds:
    description:
      - Return the newest O(builds) GitHub builds of each selected endpoint (0 to 100), newest first, in
        RV(endpoints[].builds). V(0) reads none. One more read per endpoint (two when a page of RunPod's build
        history holds fewer), made with the health reads.
      - To wait for a build, see O(runpod.cloud.endpoint#module:wait_for=build).
    type: int
    default: 0
    version_added: 0.3.0
"""

EXAMPLES = r"""
- name: Read every endpoint with its health
  runpod.cloud.endpoint_info:
  register: all_endpoints

- name: Read one endpoint by name
  runpod.cloud.endpoint_info:
    name: hello
  register: hello_info

- name: Read the three newest builds of a GitHub-connected endpoint
  runpod.cloud.endpoint_info:
    name: hello
    builds: 3
  register: hello_builds

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
      description: Why the health read failed (its message, then its error code in parentheses), else null.
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
    builds:
      description:
        - With O(builds) above 0, the newest builds, newest first, each with C(id), C(status) (V(PENDING),
          V(BUILDING), V(UPLOADING), V(TESTING), V(COMPLETED), V(FAILED), V(CANCELLED), V(TEST_FAILED)), C(error)
          (why a build failed), C(commit) (short hash), C(commit_message), C(branch), C(commit_date), C(image),
          C(started_at) and C(completed_at) (null while pending or live). V([]) when the endpoint has no build
          (not GitHub-connected); null when the read failed (see RV(endpoints[].builds_error)).
      type: list
      elements: dict
      returned: when O(builds) is above 0
      sample:
        - {id: build_abc123, status: FAILED, error: "tests failed", commit: abc1234, commit_message: bump model,
           branch: main, commit_date: "2026-06-01T12:00:00Z", image: "registry.runpod.net/repo:abc1234",
           started_at: "2026-06-01T12:00:05Z", completed_at: "2026-06-01T12:04:31Z"}
      version_added: 0.3.0
    builds_error:
      description: Why the build read failed (its message, then its error code in parentheses), else null.
      type: str
      returned: when O(builds) is above 0
      sample: null
      version_added: 0.3.0
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
from ansible_collections.runpod.cloud.plugins.module_utils._backend.endpoints import Endpoints
from ansible_collections.runpod.cloud.plugins.module_utils._module.base import RunPodModule, run_module
from ansible_collections.runpod.cloud.plugins.module_utils._module.specs import (
    AUTH_ARGUMENT_SPEC,
    INFO_MUTUALLY_EXCLUSIVE,
    INFO_SELECTION_SPEC,
    argument_spec,
    info_lines,
)
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.endpoint_fields import (
    describe_build,
    describe_endpoint,
    describe_release,
)

ARGUMENT_SPEC = argument_spec(
    AUTH_ARGUMENT_SPEC,
    INFO_SELECTION_SPEC,
    logs=dict(type="int", default=0),
    builds=dict(type="int", default=0),
)

MAX_CONCURRENT_HEALTH_READS = 8


MAX_BUILDS = 100  # one page of RunPod's build history at most


def read_builds(backend, endpoint_id, latest):
    """``(builds described, error)``: the newest ``latest`` builds; never raises an API error."""
    if not latest:
        return None, None
    try:
        return [describe_build(build) for build in backend.endpoints.builds(endpoint_id, latest=latest)], None
    except RunPodError as error:
        return None, f"{error.message} ({error.code})"


def read_health(backend, endpoint_id, builds=0):
    """``(health, release, error, (builds, builds error))`` for one endpoint (``backend.endpoints.release``: None
    where a backend has no releases); never raises an API error."""
    try:
        release = backend.endpoints.release(endpoint_id)
    except RunPodError:
        release = None  # the release is extra information; health_error reports the health read only
    built = read_builds(backend, endpoint_id, builds)
    try:
        return backend.endpoints.health(endpoint_id), release, None, built
    except RunPodError as error:
        return None, release, f"{error.message} ({error.code})", built


def read_all_health(backend, endpoint_ids, max_workers=MAX_CONCURRENT_HEALTH_READS, builds=0):
    """``{id: read_health(...)}`` with the reads made concurrently, at most ``max_workers`` at once."""
    if not endpoint_ids:
        return {}
    with ThreadPoolExecutor(max_workers=max(1, min(max_workers, len(endpoint_ids)))) as pool:
        futures = {endpoint_id: pool.submit(read_health, backend, endpoint_id, builds) for endpoint_id in endpoint_ids}
        return {endpoint_id: future.result() for endpoint_id, future in futures.items()}


class EndpointInfoModule(RunPodModule):
    uses = (Endpoints,)
    result_key = "endpoints"
    resource_kind = "endpoint"

    def run(self):
        lines = info_lines(self)
        builds = self.params["builds"]
        if not 0 <= builds <= MAX_BUILDS:
            self.fail(f"builds must be between 0 and {MAX_BUILDS} (the newest builds per endpoint), got {builds}",
                      code="bad_request")
        backend = self.backend
        endpoints = self.select(backend.endpoints.get, backend.endpoints.find, backend.endpoints.list)
        health = read_all_health(self.backend, [endpoint.id for endpoint in endpoints], builds=builds)
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
            counts, release, error, (built, built_error) = health[endpoint.id]
            entry = describe_endpoint(endpoint, self.backend.serverless_url, counts)
            entry["release"], entry["rollout"] = describe_release(release)
            entry["jobs"] = dict(counts.jobs or {}) if counts is not None else None
            entry["health_error"] = error
            if builds:
                entry["builds"], entry["builds_error"] = built, built_error
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

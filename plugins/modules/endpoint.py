# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: endpoint
short_description: Manage RunPod serverless endpoints and wait for a ready worker or a finished rollout
version_added: 0.1.0
description:
  - Create, update in place and delete RunPod serverless endpoints (queue or load balancer, GPU or CPU workers).
  - An endpoint carries its own container settings (O(image), O(env), ...), so shipping a
    new worker image is an update of the endpoint; RunPod then makes a new release and replaces the workers one
    by one. See O(wait_for).
  - An endpoint is identified by O(id), else by O(name). RunPod does not enforce unique endpoint names, so a
    lookup by name that finds several endpoints fails and lists their ids; one match is used; none creates
    the endpoint. A rerun after a failed wait therefore finds the same endpoint and resumes waiting.
  - Only the options you give are compared and changed; omitted options leave the endpoint as it is.
  - With O(wait=true) the task returns once the endpoint has a ready worker on its current release (or, with
    O(wait_for=rollout), once no worker runs an older release), see O(wait). The wait never deletes anything.
    On failure the result carries C(code), C(id), the endpoint, RV(release), RV(rollout) and C(wait)
    (C(elapsed), C(polls), C(last_state) with the worker counters and, during a rollout, the release and how
    many workers are still stale).
  - See C(docs/endpoints.md) in the collection for what ready means and how GPU types map to GPU pools.
extends_documentation_fragment:
  - runpod.cloud.common.WAIT
  - runpod.cloud.lookup
  - runpod.cloud.container
  - runpod.cloud.container.REGISTRY
attributes:
  check_mode:
    support: full
    details:
      - Check mode makes no mutating call and never waits.
  diff_mode:
    support: full
notes:
  - "What O(wait=true) waits for: a worker that runs the endpoint's current release (not stale in the worker
    list) in state C(IDLE) or C(RUNNING). C(/health) counts every worker, old release or new, so it decides only
    when the worker list shows no stale worker. RV(ready_signal) says which signal fired."
  - C(running) counts scheduled workers, so a ready endpoint is not proof that a container serves requests yet.
  - Right after creation the invoke service may not know the endpoint yet (HTTP 404 for a while). That is
    treated as propagation lag; only 12 consecutive misses before the first successful read end the wait
    with C(not_found). Two consecutive 404s after a successful read mean the endpoint was deleted while
    waiting (C(not_found)). HTTP 401/403 end the wait at once; 5xx and network errors are ridden out.
  - Throttled or unhealthy workers are never ready; such an endpoint waits until O(wait_timeout).
  - "An endpoint with no running worker is not billing, but it starts one on the first request."
options:
  id:
    description:
      - Id of an existing endpoint. Takes precedence over O(name) for the lookup; with O(name) also given, the
        endpoint is renamed when the names differ.
  name:
    description:
      - Name of the endpoint. Required to create one.
      - At most 191 characters, without leading or trailing whitespace and without control characters;
        anything else fails with C(code=bad_request) before any API call. With O(id), a name another live
        endpoint already has is refused with C(code=conflict).
  state:
    description:
      - V(present) creates the endpoint or updates it in place; V(absent) deletes it.
      - Deleting an endpoint terminates its workers and cancels its queued and running jobs.
  type:
    description:
      - How requests reach the workers - V(QUEUE) (jobs through RunPod's queue, C(/run) and C(/runsync)) or
        V(LOAD_BALANCER) (HTTP straight to the workers; it scales on V(REQUEST_COUNT) only).
      - Set at creation (default V(QUEUE)); RunPod cannot change it afterwards, so a different value on an existing
        endpoint is refused before any change.
    type: str
    choices: [QUEUE, LOAD_BALANCER]
    version_added: 0.2.0
  image:
    description:
      - Container image the workers run. Either O(image) or O(template_id) is needed to
        create an endpoint; both may be given (the explicit settings win over the template's).
      - Changing it (or O(docker_args), O(container_disk_gb), O(env), O(ports), O(registry_id)) makes a new
        release that replaces every worker; see O(wait_for).
    version_added: 0.2.0
  docker_args:
    description:
      - Arguments passed to the container entrypoint (REST v2 C(args)).
    version_added: 0.2.0
  container_disk_gb:
    description:
      - Container disk of each worker in GB (at least 1).
    version_added: 0.2.0
  env:
    description:
      - Environment variables of the workers. Compared as a whole - the endpoint's environment becomes exactly
        this.
    version_added: 0.2.0
  ports:
    description:
      - Ports the workers expose, as C(port/protocol), for example V(8000/http) (load balancer endpoints). Compared
        without regard to order.
    version_added: 0.2.0
  template_id:
    description:
      - Id of a serverless template (see M(runpod.cloud.template)) whose container settings the endpoint starts
        with; O(image) may be given instead.
      - The template's settings are copied into the endpoint at create and RunPod keeps no
        link to it, so on an existing endpoint this option is not compared (it never causes an update).
    type: str
  gpu_type_ids:
    description:
      - GPU types the workers may use, for example V(NVIDIA GeForce RTX 4090). Required to create an endpoint.
      - Endpoints select GPUs by pool, so each GPU type is mapped to its serverless pool
        (for example C(NVIDIA GeForce RTX 4090) and C(NVIDIA L4) to C(ADA_24), C(NVIDIA RTX A4000) to
        C(AMPERE_16), C(NVIDIA A100 80GB PCIe) to C(AMPERE_80), C(NVIDIA H200) to C(HOPPER_141)); pool ids
        such as V(ADA_24) are accepted directly. GPU types without a serverless pool are refused before any
        API call.
      - Compared as a set of pools.
    type: list
    elements: str
  gpu_count:
    description:
      - GPUs per worker.
    type: int
  allowed_cuda_versions:
    description:
      - CUDA versions (C(major.minor), for example V(12.8)) the workers' hosts may have; V([]) clears the
        constraint. GPU endpoints only. Compared without regard to order.
      - Mutually exclusive with a O(min_cuda_version) (RunPod refuses both); an endpoint that has a floor must
        clear it in the same task (O(min_cuda_version) set to an empty string).
    type: list
    elements: str
    version_added: 0.2.0
  min_cuda_version:
    description:
      - Lowest CUDA version (C(major.minor)) the workers' hosts may have; an empty string clears the floor.
        GPU endpoints only.
    type: str
    version_added: 0.2.0
  cpu_flavor_ids:
    description:
      - CPU flavors (for example V(cpu3c), V(cpu5c)) for a CPU endpoint, each at O(vcpu_count) vCPUs. Mutually
        exclusive with O(gpu_type_ids). RunPod cannot turn a GPU endpoint into a CPU one or back, so that is refused.
    type: list
    elements: str
    version_added: 0.2.0
  vcpu_count:
    description:
      - vCPUs per worker of a CPU endpoint, a power of two from 2 (default 2).
    type: int
    version_added: 0.2.0
  workers_min:
    description:
      - Workers kept running at all times (they bill while idle). With V(0) no worker is guaranteed, so
        O(wait=true) warns (but still waits).
    type: int
  workers_max:
    description:
      - Maximum number of workers.
    type: int
  idle_timeout:
    description:
      - Seconds a worker stays up without work before it is scaled down (1 to 3600).
      - RunPod refuses it beside O(scaler_type=REQUEST_COUNT), so that combination (given,
        or with the scaler the endpoint has) fails before any change.
    type: int
  scaler_type:
    description:
      - How the endpoint scales.
    type: str
    choices: [QUEUE_DELAY, REQUEST_COUNT]
  scaler_value:
    description:
      - Seconds of queue delay before scaling up (V(QUEUE_DELAY)), or requests per worker (V(REQUEST_COUNT)).
      - Sent as a whole number with V(REQUEST_COUNT).
    type: float
  flashboot:
    description:
      - Whether FlashBoot (cached workers for faster cold starts) is on.
    type: bool
  network_volume_id:
    description:
      - Id of a network volume to attach to the workers. An empty value leaves the current setting unchanged.
    type: str
  data_center_ids:
    description:
      - Data centers the workers may run in, for example V(EU-RO-1). Compared without regard to order.
        An empty list leaves the current setting unchanged.
    type: list
    elements: str
  execution_timeout_ms:
    description:
      - Maximum run time of one request, in milliseconds.
    type: int
  wait_for:
    description:
      - What O(wait=true) waits for.
      - V(ready) - a worker that runs the endpoint's current release is idle or running. After an update that
        made a new release (a new image, for example) the old workers keep serving until they are replaced, and
        they do not count.
      - V(rollout) - that, and no worker left on an older release (the rollout is over).
      - V(build) (a GitHub-connected endpoint) - the newest build of the endpoint ends and, when it is
        V(COMPLETED), a worker on the release it produced (or a later one) is ready, as V(ready) says. A V(FAILED),
        V(TEST_FAILED) or V(CANCELLED) build ends the wait at once with C(code=build_failed), its error, commit and
        branch in the message and in RV(build); nothing is deleted. No build yet is not ready (a push may just
        have started one); a newer build that starts during the wait is the one waited for. Added in 0.3.0.
    type: str
    choices: [ready, rollout, build]
    default: ready
    version_added: 0.2.0
"""

EXAMPLES = r"""
- name: Create a serverless template
  runpod.cloud.template:
    name: hello-worker
    image: runpod/serverless-hello-world:latest
    serverless: true
  register: hello_template

- name: Create the endpoint and wait for a ready worker
  runpod.cloud.endpoint:
    name: hello
    template_id: "{{ hello_template.template.id }}"
    gpu_type_ids:
      - NVIDIA GeForce RTX 4090
      - NVIDIA L4
    workers_min: 1
    workers_max: 3
    idle_timeout: 5
    scaler_type: QUEUE_DELAY
    scaler_value: 4
    wait: true
    wait_timeout: 15m
  register: hello

- name: Show where to send requests
  ansible.builtin.debug:
    msg: "{{ hello.endpoint.urls.runsync }} ({{ hello.ready_signal }})"

- name: Create an endpoint straight from an image (REST v2, no template)
  runpod.cloud.endpoint:
    name: sdxl
    image: my-org/sdxl-worker:1.4.0
    env:
      MODEL: sdxl-turbo
    gpu_type_ids: [NVIDIA GeForce RTX 4090]
    allowed_cuda_versions: ["12.8"]
    workers_min: 1
    workers_max: 4
    wait: true

- name: Ship a new worker image and wait until no old worker serves
  runpod.cloud.endpoint:
    name: sdxl
    image: my-org/sdxl-worker:1.5.0
    wait: true
    wait_for: rollout
    wait_timeout: 20m
  register: shipped

- name: Show the release that serves now
  ansible.builtin.debug:
    msg: "release v{{ shipped.release.version }}, {{ shipped.rollout.workers_on_latest }} workers on it"

- name: A CPU endpoint
  runpod.cloud.endpoint:
    name: cpu-jobs
    image: my-org/cpu-worker:2.0
    cpu_flavor_ids: [cpu3c, cpu5c]
    vcpu_count: 4
    workers_max: 2

- name: Scale down to zero standing workers
  runpod.cloud.endpoint:
    name: hello
    workers_min: 0

- name: Delete the endpoint
  runpod.cloud.endpoint:
    name: hello
    state: absent
"""

RETURN = r"""
endpoint:
  description:
    - The endpoint after the task (the planned endpoint with a null RV(endpoint.id) when created in check mode;
      the deleted endpoint with O(state=absent); null when there was nothing to delete).
    - On a failed wait, the endpoint as last seen, with the last health counters.
  returned: always
  type: dict
  sample:
    id: a1b2c3d4e5f6g7
    name: hello
    template_id: 2k4zq1n8xw
    gpu_type_ids: []
    gpu_pools: [ADA_24]
    gpu_count: 1
    workers_min: 1
    workers_max: 3
    idle_timeout: 5
    scaler_type: QUEUE_DELAY
    scaler_value: 4.0
    flashboot: false
    network_volume_id: null
    data_center_ids: []
    execution_timeout_ms: 300000
    registry_id: null
    type: QUEUE
    image: my-org/sdxl-worker:1.5.0
    docker_args: null
    cmd: []
    entrypoint: []
    container_disk_gb: 20
    env: {MODEL: sdxl-turbo}
    ports: []
    cpu_flavor_ids: []
    vcpu_count: null
    allowed_cuda_versions: []
    min_cuda_version: null
    created_at: "2026-03-01T10:00:00Z"
    urls:
      run: https://api.runpod.ai/v2/a1b2c3d4e5f6g7/run
      runsync: https://api.runpod.ai/v2/a1b2c3d4e5f6g7/runsync
      status: https://api.runpod.ai/v2/a1b2c3d4e5f6g7/status
      health: https://api.runpod.ai/v2/a1b2c3d4e5f6g7/health
    health: {ready: 1, running: 0, idle: 1, initializing: 0, throttled: 0, unhealthy: 0}
  contains:
    id:
      description: Endpoint id.
      type: str
      returned: always
      sample: a1b2c3d4e5f6g7
    name:
      description: Endpoint name.
      type: str
      returned: always
      sample: hello
    template_id:
      description:
        - Always null - RunPod's endpoints keep no link to the template they were created from.
      type: str
      returned: always
      sample: 2k4zq1n8xw
    gpu_type_ids:
      description: Always empty - RunPod selects an endpoint's GPUs by pool, see RV(endpoint.gpu_pools).
      type: list
      elements: str
      returned: always
      sample: [NVIDIA GeForce RTX 4090]
    gpu_pools:
      description: GPU pools.
      type: list
      elements: str
      returned: always
      sample: [ADA_24]
    gpu_count:
      description: GPUs per worker.
      type: int
      returned: always
      sample: 1
    workers_min:
      description: Minimum number of workers.
      type: int
      returned: always
      sample: 1
    workers_max:
      description: Maximum number of workers.
      type: int
      returned: always
      sample: 3
    idle_timeout:
      description: Idle seconds before a worker is scaled down.
      type: int
      returned: always
      sample: 5
    scaler_type:
      description: Scaler type.
      type: str
      returned: always
      sample: QUEUE_DELAY
    scaler_value:
      description: Scaler value.
      type: float
      returned: always
      sample: 4.0
    flashboot:
      description: Whether FlashBoot is on (null where the API does not report it).
      type: bool
      returned: always
      sample: false
    network_volume_id:
      description: Attached network volume id.
      type: str
      returned: always
      sample: null
    data_center_ids:
      description: Allowed data centers.
      type: list
      elements: str
      returned: always
      sample: [EU-RO-1]
    execution_timeout_ms:
      description:
        - Per-request execution timeout in milliseconds; null when the endpoint sets none (RunPod reads back V(0)
          for an endpoint created without one, which means the same).
      type: int
      returned: always
      sample: 300000
    registry_id:
      description: Id of the registry credential for a private image .
      type: str
      returned: always
      sample: null
      version_added: 0.2.0
    type:
      description: V(QUEUE) or V(LOAD_BALANCER) .
      type: str
      returned: always
      sample: QUEUE
      version_added: 0.2.0
    image:
      description: Container image of the current release .
      type: str
      returned: always
      sample: my-org/sdxl-worker:1.5.0
      version_added: 0.2.0
    docker_args:
      description: Container arguments (null when none).
      type: str
      returned: always
      sample: null
      version_added: 0.2.0
    cmd:
      description: The command in exec form (null when the answer has none).
      type: list
      elements: str
      returned: always
      sample: [python, -u, handler.py]
      version_added: 0.3.0
    entrypoint:
      description: The entrypoint in exec form (null when the answer has none).
      type: list
      elements: str
      returned: always
      sample: []
      version_added: 0.3.0
    container_disk_gb:
      description: Container disk in GB .
      type: int
      returned: always
      sample: 20
      version_added: 0.2.0
    env:
      description: Environment of the workers .
      type: dict
      returned: always
      sample: {MODEL: sdxl-turbo}
      version_added: 0.2.0
    ports:
      description: Exposed ports .
      type: list
      elements: str
      returned: always
      sample: []
      version_added: 0.2.0
    cpu_flavor_ids:
      description: CPU flavors of a CPU endpoint (empty for GPU endpoints).
      type: list
      elements: str
      returned: always
      sample: []
      version_added: 0.2.0
    vcpu_count:
      description: vCPUs per worker of a CPU endpoint (REST v2); null otherwise.
      type: int
      returned: always
      sample: null
      version_added: 0.2.0
    allowed_cuda_versions:
      description: Allowed CUDA versions (empty means any).
      type: list
      elements: str
      returned: always
      sample: []
      version_added: 0.2.0
    min_cuda_version:
      description: Lowest CUDA version, null for none.
      type: str
      returned: always
      sample: null
      version_added: 0.2.0
    created_at:
      description: Creation time as the API reports it.
      type: str
      returned: always
      sample: "2026-03-01T10:00:00Z"
    urls:
      description:
        - Serverless URLs of the endpoint, built from O(serverless_url). Append a job id to C(status).
        - Null for an endpoint planned in check mode.
      type: dict
      returned: always
      sample:
        run: https://api.runpod.ai/v2/a1b2c3d4e5f6g7/run
        runsync: https://api.runpod.ai/v2/a1b2c3d4e5f6g7/runsync
        status: https://api.runpod.ai/v2/a1b2c3d4e5f6g7/status
        health: https://api.runpod.ai/v2/a1b2c3d4e5f6g7/health
    health:
      description:
        - Worker counters from the last C(/health) read of the wait (C(ready), C(running), C(idle),
          C(initializing), C(throttled), C(unhealthy)).
        - Null when the task did not wait or no health read succeeded; use M(runpod.cloud.endpoint_info) to read it.
      type: dict
      returned: always
      sample: {ready: 1, running: 0, idle: 1, initializing: 0, throttled: 0, unhealthy: 0}
release:
  description:
    - The endpoint's current release - C(version), C(source) (V(MANUAL) for a configuration change, V(GIT_BUILD)),
      C(id) and C(created_at).
  returned: when the task waited
  type: dict
  sample: {version: 3, source: MANUAL, id: 5r9x2m7q, created_at: "2026-06-01T12:10:00Z"}
  version_added: 0.2.0
rollout:
  description:
    - How far the current release has replaced the workers when the wait ended - C(in_progress),
      C(workers_on_latest), C(workers_total), C(percent_on_latest).
  returned: when the task waited
  type: dict
  sample: {in_progress: false, workers_on_latest: 2, workers_total: 2, percent_on_latest: 100}
  version_added: 0.2.0
ready_signal:
  description:
    - Which signal ended the wait. V(worker_idle) / V(worker_running) - a worker on the current release in that
      state in the worker list; V(health_ready) - the C(/health) counter, when no worker is stale.
  returned: when O(wait=true) succeeded
  type: str
  sample: worker_idle
build:
  description:
    - With O(wait_for=build), the newest build as the wait last read it (also on failure) - C(id), C(status)
      (V(PENDING), V(BUILDING), V(UPLOADING), V(TESTING), V(COMPLETED), V(FAILED), V(CANCELLED), V(TEST_FAILED)),
      C(error) (why a V(FAILED) or V(TEST_FAILED) build failed), C(commit) (short hash), C(commit_message),
      C(branch), C(commit_date), C(image) (what the build produced), C(started_at) and C(completed_at) (null
      while pending or live). Null when the endpoint had no build.
  returned: when O(wait_for=build) waited
  type: dict
  sample:
    id: build_abc123
    status: FAILED
    error: "build failed: docker build exited with code 1"
    commit: abc1234
    commit_message: bump model
    branch: main
    commit_date: "2026-06-01T12:00:00Z"
    image: registry.runpod.net/repo:abc1234
    started_at: "2026-06-01T12:00:05Z"
    completed_at: "2026-06-01T12:04:31Z"
  version_added: 0.3.0
ready_worker_id:
  description: Id of the worker that was seen ready, when the signal came from the worker list.
  returned: when O(wait=true) succeeded
  type: str
  sample: w-4f9a2c
logs:
  description:
    - After a failed O(wait) (timeout, fatal error or interrupt), RunPod's newest 20 lines of each log source of
      the newest worker on the current release that is unhealthy (else initializing or throttled) -
      C(worker_id), C(container), C(system) (each a list of C({ts, line}), newest last) and C(unavailable), why
      they could not be read (null when they were; C(worker_id) is null when no such worker was listed).
    - The failure message quotes the worker's newest container line. Lines are data, with the task's secrets
      masked (C(********)); see R(the logs guide,ansible_collections.runpod.cloud.docsite.guide_logs).
  returned: when the wait failed
  type: dict
  sample:
    worker_id: w1x2y3z4
    container: [{ts: "2026-07-29T21:53:02Z", line: "ModuleNotFoundError: No module named 'vllm'"}]
    system: []
    unavailable: null
  version_added: 0.2.0
wait:
  description:
    - How the wait went, with the same keys on success and on failure - C(elapsed) (whole seconds), C(polls)
      (health reads), C(probes) (always 0 here), C(history) (the state transitions C({elapsed, state})) and
      C(last_state) (the worker counters of the last health read). A successful wait also returns C(ready_detail).
  returned: when the task waited
  type: dict
  sample:
    elapsed: 42
    polls: 9
    probes: 0
    history: [{elapsed: 0.0, state: "workers ready 0, running 0, initializing 1, throttled 0, unhealthy 0"}]
    last_state: "workers ready 0, running 0, initializing 0, throttled 1, unhealthy 0"
diff:
  description: The endpoint before and after the change (only the changed fields for an update).
  returned: when changed and in diff mode
  type: dict
  sample:
    before: {workers_max: 3}
    after: {workers_max: 5}
code:
  description:
    - Machine-readable failure code, for example V(wait_timeout), V(wait_interrupted), V(not_found),
      V(unauthorized), V(forbidden), V(bad_request), V(ambiguous) (several endpoints share O(name)) or
      V(build_failed) (with O(wait_for=build), the newest build failed, failed its tests or was cancelled).
  returned: failure
  type: str
  sample: wait_timeout
id:
  description: Id of the endpoint the failure concerns; it is kept, never deleted by a failed task.
  returned: failure, when an endpoint is concerned
  type: str
  sample: a1b2c3d4e5f6g7
ids:
  description: Ids of the endpoints sharing O(name) when the task failed because the name is ambiguous.
  returned: on ambiguity failure
  type: list
  elements: str
  sample: [a1b2c3d4e5f6g7, h8i9j0k1l2m3n4]
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.runpod.cloud.plugins.module_utils._api.endpoint_inputs import EndpointInput
from ansible_collections.runpod.cloud.plugins.module_utils._backend.endpoints import Endpoints
from ansible_collections.runpod.cloud.plugins.module_utils._backend.secrets import Secrets
from ansible_collections.runpod.cloud.plugins.module_utils._engine.build_poller import ENDPOINT_WAITS
from ansible_collections.runpod.cloud.plugins.module_utils._module.base import run_module
from ansible_collections.runpod.cloud.plugins.module_utils._module.endpoint_waiter import EndpointWaiter
from ansible_collections.runpod.cloud.plugins.module_utils._module.resource import ResourceModule
from ansible_collections.runpod.cloud.plugins.module_utils._module.specs import (
    AUTH_ARGUMENT_SPEC,
    CONTAINER_ARGUMENT_SPEC,
    LOOKUP_ARGUMENT_SPEC,
    REGISTRY_ARGUMENT_SPEC,
    WAIT_ARGUMENT_SPEC,
    argument_spec,
)
from ansible_collections.runpod.cloud.plugins.module_utils._rules import endpoint_rules as _endpoints
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.endpoint_fields import EndpointSpec

ARGUMENT_SPEC = argument_spec(
    AUTH_ARGUMENT_SPEC,
    WAIT_ARGUMENT_SPEC,
    LOOKUP_ARGUMENT_SPEC,
    CONTAINER_ARGUMENT_SPEC,
    REGISTRY_ARGUMENT_SPEC,
    type=dict(type="str", choices=["QUEUE", "LOAD_BALANCER"]),
    template_id=dict(type="str"),
    gpu_type_ids=dict(type="list", elements="str"),
    gpu_count=dict(type="int"),
    allowed_cuda_versions=dict(type="list", elements="str"),
    min_cuda_version=dict(type="str"),
    cpu_flavor_ids=dict(type="list", elements="str"),
    vcpu_count=dict(type="int"),
    workers_min=dict(type="int"),
    workers_max=dict(type="int"),
    idle_timeout=dict(type="int"),
    scaler_type=dict(type="str", choices=["QUEUE_DELAY", "REQUEST_COUNT"]),
    scaler_value=dict(type="float"),
    flashboot=dict(type="bool"),
    network_volume_id=dict(type="str"),
    data_center_ids=dict(type="list", elements="str"),
    execution_timeout_ms=dict(type="int"),
    wait_for=dict(type="str", choices=list(ENDPOINT_WAITS), default="ready"),
)


class EndpointModule(ResourceModule):
    """The wait, the remedy and ``describe`` are ``EndpointWaiter``'s (``self.waiter``), which the action plugin
    that runs the wait on the controller builds too (plugins/action/endpoint.py)."""

    uses = (Endpoints, Secrets)

    resource_kind = "endpoint"
    waiter_class = EndpointWaiter
    input_model = EndpointInput  # every input rule, before any API call
    wanted_changes: dict = {}

    # -- hooks ---------------------------------------------------------------------------------------
    def read(self, resource_id):
        return self.backend.endpoints.get(resource_id)

    def find_by_name(self, name):
        return self.backend.endpoints.find(name)

    def describe(self, resource):
        return self.waiter.describe(resource)

    def wanted(self):
        gpu_type_ids = self.params.get("gpu_type_ids")  # known types (EndpointInput): mapped onto GPU pools
        return _endpoints.wanted_fields(self.params, _endpoints.gpu_selection(gpu_type_ids) if gpu_type_ids else None)

    def build_spec(self):
        params = self.params
        wanted = self.wanted()
        if "scaler_value" in wanted:
            wanted["scaler_value"] = _endpoints.scaler_number(wanted["scaler_value"], wanted.get("scaler_type"))
        return EndpointSpec(name=params["name"], **wanted)

    def plan(self, spec):
        planned = self.describe(dict(spec.model_dump(), id=None, created_at=None))
        return planned, planned

    def create(self, spec):
        return self.backend.endpoints.create(spec)

    def create_failed(self, spec, error):
        if error.maybe_created:
            self.fail(
                f"creating endpoint {spec.name!r} failed ({error.message}, {error.code}), and RunPod may have "
                f"created it anyway; it was not retried: rerun this task (it finds the endpoint by name) or "
                f"check with runpod.cloud.endpoint_info name={spec.name}",
                code=error.code,
                status=error.status,
            )
        super().create_failed(spec, error)

    def check_found(self, current):
        # The changes are worked out with the refusals (a change RunPod cannot make), so once, here.
        if current is None:
            return
        try:
            self.wanted_changes = _endpoints.endpoint_changes(current, self.wanted(), self.params)
        except _endpoints.RefusedError as refusal:
            self.fail(str(refusal), code="bad_request", resource_id=current.id)

    def changes(self, current):
        return self.wanted_changes

    def update(self, current, changes):
        return self.backend.endpoints.update(current.id, changes)

    def delete(self, current):
        self.backend.endpoints.delete(current.id)


def main():
    module = AnsibleModule(
        argument_spec=ARGUMENT_SPEC,
        required_one_of=[("id", "name")],
        mutually_exclusive=[("gpu_type_ids", "cpu_flavor_ids")],
        supports_check_mode=True,
    )
    run_module(EndpointModule, module)


if __name__ == "__main__":
    main()

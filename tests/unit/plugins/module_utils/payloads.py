"""Realistic API payloads (shapes from the OpenAPI specs and shared/docs/runpod-api.md) for backend tests."""

from __future__ import annotations

import copy
import random

import httpx
from helpers import fakes as _fakes
from helpers.fakes import full_backend

API = "https://rest.example.test/v2"
SLS = "https://sls.example.test/sls"
PODS = "/v2/pods"


def v2_pod(**overrides):
    """A RUNNING REST v2 GPU pod with a public 22/tcp mapping."""
    pod = {
        "id": "pod_abc123",
        "name": "trainer",
        "status": "RUNNING",
        "actions": ["stop", "restart", "terminate"],
        "image": "runpod/pytorch:1.0.2-cu1281-torch280-ubuntu2404",
        "args": "",
        "disk": 50,
        "mounts": {"persistent": {"size": 20, "path": "/workspace"}},
        "ports": ["8888/http", "22/tcp"],
        "env": {"JUPYTER_PASSWORD": "hunter2"},
        "registry": None,
        "cloud": "SECURE",
        "dataCenterId": "US-TX-3",
        "cudaVersion": "12.8",
        "ssh": {
            "proxy": {
                "host": "ssh.runpod.io",
                "port": 22,
                "username": "pod_abc123-64411eb2",
                "command": "ssh pod_abc123-64411eb2@ssh.runpod.io",
            },
            "direct": {
                "host": "45.23.12.1",
                "port": 43022,
                "username": "root",
                "command": "ssh root@45.23.12.1 -p 43022",
            },
        },
        "template": None,
        "cost": 0.69,
        "locked": False,
        "runtime": {
            "uptime": 111,
            "gpus": [{"util": 3, "memoryUtil": 10}],
            "cpu": {"util": 2},
            "memory": {"util": 5},
            "ports": [
                {"private": 8888, "public": 43210, "type": "http", "ip": "100.65.0.101"},
                {"private": 22, "public": 43022, "type": "tcp", "ip": "45.23.12.1"},
            ],
        },
        "createdAt": "2026-03-13T20:00:00Z",
        "startedAt": "2026-03-13T20:00:30Z",
        "globalNetworking": {"enabled": False},
        "gpu": {"id": "NVIDIA GeForce RTX 4090", "count": 1},
        "someFutureField": {"nested": True},
    }
    pod.update(overrides)
    return copy.deepcopy(pod)


def v2_provisioning_pod(**overrides):
    fields = {
        "id": "pod_new",
        "name": "fresh",
        "status": "PROVISIONING",
        "actions": ["stop", "terminate"],
        "dataCenterId": None,
        "cudaVersion": None,
        "ssh": {"proxy": None, "direct": None},
        "runtime": None,
        "startedAt": None,
        "mounts": {},
    }
    fields.update(overrides)
    return v2_pod(**fields)


def v2_cpu_pod(**overrides):
    pod = v2_pod(
        id="pod_cpu",
        name="cpu-box",
        mounts={"network": [{"volumeId": "vol_xyz", "path": "/runpod-volume"}]},
        cost=0.12,
        **overrides,
    )
    del pod["gpu"]
    pod["cpu"] = {"id": "cpu5c", "vcpuCount": 4, "memory": 8}
    return pod


def v2_endpoint(**overrides):
    endpoint = {
        "id": "ep_abc123",
        "name": "inference",
        "type": "QUEUE",
        "image": "runpod/serverless-hello-world:latest",
        "args": "",
        "disk": 20,
        "env": {},
        "ports": [],
        "registry": None,
        "requestUrls": {"health": "https://invoke.example.test/v2/ep_abc123/health"},
        "gpu": {"pools": ["ADA_24", "AMPERE_16"], "count": 1, "allowedCudaVersions": [], "minCudaVersion": None},
        "workers": {"min": 1, "max": 3, "idleTimeout": 5},
        "scaling": {"type": "QUEUE_DELAY", "queueDelay": 4},
        "dataCenterIds": ["US-TX-3"],
        "networkVolumes": ["vol_abc"],
        "timeout": 300000,
        "flashboot": "FLASHBOOT",
        "createdAt": "2026-03-13T20:00:00Z",
    }
    endpoint.update(overrides)
    return copy.deepcopy(endpoint)


def v2_template(**overrides):
    template = {
        "id": "tpl_abc",
        "name": "torch",
        "image": "runpod/pytorch:2.1.0",
        "args": "sleep infinity",
        "disk": 40,
        "mounts": {},
        "ports": ["22/tcp"],
        "env": {"A": "1"},
        "registry": None,
        "serverless": False,
        "public": False,
        "category": "NVIDIA",
        "startSsh": True,
        "startJupyter": False,
        "allowedCudaVersions": [],
    }
    template.update(overrides)
    return copy.deepcopy(template)


# -- test doubles shared by the backend tests ----------------------------------------------------------

# The one fake clock lives in tests/helpers/fakes.py; kept importable from here for the backend tests.
FakeClock = _fakes.FakeClock


class Router:
    """MockTransport handler: ``(METHOD, path)`` -> queue of answers (the last one repeats).

    An answer is an ``httpx.Response``, a JSON-able object (200), a callable(request) or an exception.
    Every request is recorded with its decoded JSON body.
    """

    def __init__(self):
        self.routes = {}
        self.calls = []

    def add(self, method, path, *answers):
        self.routes.setdefault((method, path), []).extend(answers)
        return self

    def bodies(self, method, path):
        return [body for (m, p, body, _req) in self.calls if (m, p) == (method, path)]

    def count(self, method, path):
        return len(self.bodies(method, path))

    def __call__(self, request):
        import json

        import httpx

        body = json.loads(request.content) if request.content else None
        path = request.url.raw_path.decode().split("?", 1)[0]
        self.calls.append((request.method, path, body, request))
        queue = self.routes.get((request.method, path))
        if not queue:
            return httpx.Response(404, json={"title": "Not Found", "status": 404, "detail": "no route in test"})
        answer = queue.pop(0) if len(queue) > 1 else queue[0]
        if isinstance(answer, Exception):
            raise answer
        if callable(answer):
            answer = answer(request)
        if isinstance(answer, httpx.Response):
            return answer
        return httpx.Response(200, json=answer)


def problem(status, detail, errors=None, headers=None):
    import json

    import httpx

    body = {"title": "Error", "status": status, "detail": detail}
    if errors:
        body["errors"] = errors
    return httpx.Response(
        status, content=json.dumps(body), headers={"Content-Type": "application/problem+json", **(headers or {})}
    )


def partial(cls, **values):
    """A record of ``cls`` from ``values`` without its rules: a partial view, which no reader makes (the engine
    reads views, so its tests feed it the odd ones: ``ports`` still a comma string, fields missing)."""
    record = cls.__new__(cls)
    for name, info in cls.model_fields.items():
        if name in values or not info.required:
            setattr(record, name, values[name] if name in values else info.make_default())
    return record


def backend_with(router, **options):
    """A full REST v2 backend over ``router`` (a ``Router``), with a fake clock and a seeded jitter."""
    opts = {"api_key": "k-test-123456", "api_url": API, "serverless_url": SLS, **options}
    return full_backend(opts, transport=httpx.MockTransport(router), clock=_fakes.FakeClock(), rng=random.Random(1))

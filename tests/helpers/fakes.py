# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Test doubles for unit tests: ``FakeClock`` and ``FakeBackend``.

``FakeBackend`` subclasses the real ``Backend``, so a method the interface gains, renames or drops shows up
here: an un-faked method that would send a request fails the test (the fake has no HTTP client), and a
faked method whose name the interface no longer has fails :func:`check_fake_matches_interface`.
"""

from __future__ import annotations

import inspect
import json
from typing import Any

import pytest

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._backend.core import Backend
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.views import (
    EndpointView,
    PodView,
    TemplateView,
    WorkerSummary,
)

GPU = "NVIDIA GeForce RTX 4090"
# The API key run_module gives every module; a test fails if it shows up in the module's output.
UNIT_API_KEY = "unit-test-secret-key"


class FakeClock:
    """``now()``/``sleep()`` like the engine's clock; sleeping only moves ``now`` forward and is recorded.

    ``on_sleep(clock, seconds)`` runs after each sleep (e.g. to cancel a token or change the world).
    """

    def __init__(self, start: float = 1000.0, on_sleep: Any = None) -> None:
        self.start = start
        self.current = start
        self.sleeps: list[float] = []
        self.on_sleep = on_sleep

    def now(self) -> float:
        return self.current

    def sleep(self, seconds: float, cancel: Any = None) -> None:
        assert seconds >= 0, "the engine asked to sleep a negative time"
        self.sleeps.append(seconds)
        self.current += seconds
        if self.on_sleep is not None:
            self.on_sleep(self, seconds)

    @property
    def elapsed(self) -> float:
        return self.current - self.start


class _NoClient:
    """Stands in for the HTTP client: any request means the fake lacks a method the code under test used."""

    base_url = "https://fake.invalid"
    requests_made = 0
    request_log: list = []

    def request(self, method: str, path: str, **kwargs: Any) -> Any:
        raise AssertionError(f"FakeBackend has no HTTP client: {method} {path} was not faked")

    def close(self) -> None:
        pass


# Backend methods that read (everything else the fake records is a mutation).
READS = frozenset(
    ("list_pods", "get_pod", "find_pods", "list_endpoints", "get_endpoint", "find_endpoints", "endpoint_health",
     "endpoint_workers", "list_templates", "get_template", "find_templates")
)


class FakeBackend(Backend):
    """Pods, endpoints and templates in dicts; every call recorded in ``calls`` as ``(method, *args)``.

    * ``errors[method]``: an exception (raised by every call) or a list of them (one per call, ``None`` lets a
      call through) for any faked method.
    * ``reads``: scripted ``list_pods`` answers (a list of ``PodView`` or an exception each; the last repeats).
      Without it ``list_pods`` lists ``pods``.
    * ``health``: scripted ``endpoint_health`` answers (a ``Health`` or an exception each; the last repeats).
    * ``workers``: scripted ``endpoint_workers`` answers (the same way); without it the list is empty.
    """

    def __init__(
        self,
        *,
        pods: Any = (),
        endpoints: Any = (),
        templates: Any = (),
        reads: Any = None,
        health: Any = (),
        workers: Any = (),
    ) -> None:
        super().__init__(_NoClient(), {"serverless_url": "https://invoke.example.test/v2"})
        self.pods = {pod.id: pod for pod in pods}
        self.endpoints = {endpoint.id: endpoint for endpoint in endpoints}
        self.templates = {template.id: template for template in templates}
        self.reads = None if reads is None else list(reads)
        self.health = list(health)
        self.workers = list(workers)
        self.errors: dict[str, Any] = {}
        self.calls: list[tuple] = []

    # -- bookkeeping --------------------------------------------------------------------------------------
    def _call(self, method: str, *args: Any) -> None:
        self.calls.append((method, *args))
        error = self.errors.get(method)
        if isinstance(error, list):
            error = error.pop(0) if error else None
        if error is not None:
            raise error

    def count(self, method: str) -> int:
        return sum(1 for call in self.calls if call[0] == method)

    def mutations(self) -> list[tuple]:
        return [call for call in self.calls if call[0] not in READS]

    @staticmethod
    def _next(script: list, index: int) -> Any:
        answer = script[min(index, len(script) - 1)]
        if isinstance(answer, BaseException):
            raise answer
        return answer

    @staticmethod
    def _get(store: dict, resource_id: str, kind: str) -> Any:
        if resource_id not in store:
            raise RunPodError("not_found", 404, f"{kind} not found")
        return store[resource_id]

    # -- pods ---------------------------------------------------------------------------------------------
    def list_pods(self, runtime=True, attempts=None, select=None):
        self._call("list_pods", attempts)
        if self.reads is not None:
            pods = self._next(self.reads, self.count("list_pods") - 1)
        else:
            pods = list(self.pods.values())
        return [pod for pod in pods if select is None or select(pod.id, pod.name)]

    def get_pod(self, pod_id, attempts=None):
        self._call("get_pod", pod_id)
        return self._get(self.pods, pod_id, "pod")

    def find_pods(self, name, attempts=None):
        self._call("find_pods", name)
        return [pod for pod in self.pods.values() if pod.name == name and pod.status != "TERMINATED"]

    def create_pod(self, spec, shared_read=None):
        """``(pod, None)``: no placement was tried (the real one says what it tried)."""
        self._call("create_pod", spec.model_dump())
        pod = pod_view("pod-new", name=spec.name, image=spec.image, ports=list(spec.ports), env=dict(spec.env))
        self.pods[pod.id] = pod
        return pod, None

    def update_pod(self, pod_id, changes):
        self._call("update_pod", pod_id, dict(changes))
        self.pods[pod_id] = self.pods[pod_id].model_copy(update=changes)
        return self.pods[pod_id]

    def _action(self, pod_id, action):
        self._call(f"{action}_pod", pod_id)
        status = "EXITED" if action == "stop" else "STARTING"
        self.pods[pod_id] = self.pods[pod_id].model_copy(update={"status": status})
        return self.pods[pod_id]

    def delete_pod(self, pod_id):
        self._call("delete_pod", pod_id)
        self.pods.pop(pod_id)

    # -- serverless endpoints -----------------------------------------------------------------------------
    def list_endpoints(self, attempts=None):
        self._call("list_endpoints")
        return list(self.endpoints.values())

    def get_endpoint(self, resource_id, attempts=None):
        self._call("get_endpoint", resource_id)
        return self._get(self.endpoints, resource_id, "endpoint")

    def find_endpoints(self, name, attempts=None):
        self._call("find_endpoints", name)
        return [endpoint for endpoint in self.endpoints.values() if endpoint.name == name]

    def create_endpoint(self, spec):
        self._call("create_endpoint", spec.model_dump())
        view = EndpointView(id="ep-new", **spec.model_dump())
        self.endpoints[view.id] = view
        return view

    def update_endpoint(self, endpoint_id, changes):
        self._call("update_endpoint", endpoint_id, dict(changes))
        self.endpoints[endpoint_id] = self.endpoints[endpoint_id].model_copy(update=changes)
        return self.endpoints[endpoint_id]

    def delete_endpoint(self, endpoint_id):
        self._call("delete_endpoint", endpoint_id)
        self.endpoints.pop(endpoint_id)

    def endpoint_health(self, endpoint_id, attempts=1):
        self._call("endpoint_health", endpoint_id, attempts)
        return self._next(self.health, self.count("endpoint_health") - 1)

    def endpoint_release(self, endpoint_id, attempts=None):
        return None  # no release: the wait describes none

    def endpoint_workers(self, endpoint_id, attempts=None):
        self._call("endpoint_workers", endpoint_id, attempts)
        return self._next(self.workers, self.count("endpoint_workers") - 1) if self.workers else WorkerSummary()

    # -- templates ----------------------------------------------------------------------------------------
    def list_templates(self, attempts=None):
        self._call("list_templates")
        return list(self.templates.values())

    def get_template(self, resource_id, attempts=None):
        self._call("get_template", resource_id)
        return self._get(self.templates, resource_id, "template")

    def find_templates(self, name, attempts=None):
        self._call("find_templates", name)
        return [template for template in self.templates.values() if template.name == name]

    def create_template(self, spec):
        self._call("create_template", spec.model_dump())
        view = TemplateView(id="tpl-new", **spec.model_dump())
        self.templates[view.id] = view
        return view

    def update_template(self, template_id, changes):
        self._call("update_template", template_id, dict(changes))
        self.templates[template_id] = self.templates[template_id].model_copy(update=changes)
        return self.templates[template_id]

    def delete_template(self, template_id):
        self._call("delete_template", template_id)
        self.templates.pop(template_id)


def check_fake_matches_interface(fake_class: type = FakeBackend, real_class: type = Backend) -> None:
    """Every public method the fake defines exists on the real class with the same parameters
    (``**kwargs`` in the fake stands for the real keyword-only ones)."""
    for name, method in vars(fake_class).items():
        if name.startswith("_") or not callable(method) or name in ("count", "mutations"):
            continue
        real = getattr(real_class, name, None)
        where = f"{fake_class.__name__}.{name}"
        assert real is not None, f"{where} fakes a method the real {real_class.__name__} does not have"
        real_params = [p.name for p in inspect.signature(real).parameters.values() if p.kind != p.KEYWORD_ONLY]
        fake_params = [p.name for p in inspect.signature(method).parameters.values() if p.kind != p.VAR_KEYWORD]
        assert fake_params == real_params, f"{where}{fake_params} != {real_class.__name__}.{name}{real_params}"


def install_backend(monkeypatch: Any, backend: Backend | None) -> None:
    """Make modules build ``backend`` instead of a real one (``None``: building one fails the test)."""
    from ansible_collections.runpod.cloud.plugins.module_utils._module import base as _base

    def make_backend(options: Any, **kwargs: Any) -> Backend:
        if backend is None:
            raise AssertionError("the module built an API client although the input was refused")
        return backend

    monkeypatch.setattr(_base, "make_backend", make_backend)


def run_module(module: Any, backend: Backend | None, capsys: Any, monkeypatch: Any, *, check_mode: bool = False,
               diff: bool = False, **args: Any) -> dict[str, Any]:
    """Run ``module.main()`` with ``args`` against ``backend`` (``None``: building one fails the test) and
    return its parsed result; the API key it is given never appears in the output."""
    from ansible.module_utils.testing import patch_module_args

    install_backend(monkeypatch, backend)
    args = dict(args, api_key=UNIT_API_KEY)
    if check_mode:
        args["_ansible_check_mode"] = True
    if diff:
        args["_ansible_diff"] = True
    with patch_module_args(args), pytest.raises(SystemExit):
        module.main()
    out = capsys.readouterr().out
    assert UNIT_API_KEY not in out
    return json.loads(out)


def install_clock(monkeypatch: Any, clock: FakeClock) -> FakeClock:
    """Make the engine's real clock (``_wait.SystemClock``, what modules wait with) read and sleep ``clock``."""
    from ansible_collections.runpod.cloud.plugins.module_utils._engine import poll as _wait

    monkeypatch.setattr(_wait.SystemClock, "now", lambda self: clock.now())
    monkeypatch.setattr(_wait.SystemClock, "sleep", lambda self, seconds, cancel=None: clock.sleep(seconds))
    return clock


def pod_view(pod_id: str = "pod-1", **fields: Any) -> PodView:
    """A running GPU pod named ``web`` (override any ``PodView`` field)."""
    values: dict[str, Any] = {
        "id": pod_id,
        "name": "web",
        "status": "RUNNING",
        "image": "img:1",
        "gpu_type": GPU,
        "gpu_count": 1,
        "ports": ["22/tcp"],
        "env": {},
        "runtime_reported": True,
    }
    values.update(fields)
    return PodView(**values)

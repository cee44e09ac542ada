# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Test doubles for unit tests: ``FakeClock`` and ``FakeBackend``.

``FakeBackend`` is shaped like the real ``Backend`` (``_backend/connection.py``): one object per resource
(``pods``, ``endpoints``, ``templates``, ``clusters``, ``gpus``; ``account`` is the real one over no client),
each a small fake holding its resources in a dict (``store``). Every call is recorded on the backend, so
``backend.count(...)`` and ``backend.mutations()`` see them all. A faked method whose name or parameters the
real object does not have fails :func:`check_fake_matches_interface`; an un-faked account call that would send
a request fails the test (the fake has no HTTP client).
"""

from __future__ import annotations

import inspect
import json
from typing import Any

import pytest

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._backend.account import Account
from ansible_collections.runpod.cloud.plugins.module_utils._backend.secrets import Secrets
from ansible_collections.runpod.cloud.plugins.module_utils._backend.shared import SshKeys
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.cluster_fields import ClusterView
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.container_fields import TemplateView
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.endpoint_fields import EndpointView, WorkerSummary
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import PodView

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


# Calls that read (everything else the fake records is a mutation).
READS = frozenset(
    ("list_pods", "get_pod", "find_pods", "list_endpoints", "get_endpoint", "find_endpoints", "endpoint_health",
     "endpoint_workers", "list_templates", "get_template", "find_templates")
)


def _next(script: list, index: int) -> Any:
    answer = script[min(index, len(script) - 1)]
    if isinstance(answer, BaseException):
        raise answer
    return answer


class FakeResource:
    """One resource of a ``FakeBackend``: ``store`` ``{id: view}``; calls recorded on the backend by their
    name in the backend's log (``list_pods``, ``create_endpoint``, ...)."""

    kind = ""

    def __init__(self, backend: FakeBackend, items: Any = ()) -> None:
        self.backend = backend
        self.store = {item.id: item for item in items}

    def _call(self, method: str, *args: Any) -> None:
        self.backend.record(method, *args)

    def _get(self, resource_id: str) -> Any:
        if resource_id not in self.store:
            raise RunPodError("not_found", 404, f"{self.kind} not found")
        return self.store[resource_id]


class FakePods(FakeResource):
    """``reads``: scripted ``list`` answers (a list of ``PodView`` or an exception each; the last repeats);
    without it ``list`` lists ``store``."""

    kind = "pod"

    def __init__(self, backend: FakeBackend, items: Any = (), reads: Any = None) -> None:
        super().__init__(backend, items)
        self.reads = None if reads is None else list(reads)

    def list(self, attempts=None, select=None, include_cluster_pods=False):
        self._call("list_pods", attempts)
        if self.reads is not None:
            pods = _next(self.reads, self.backend.count("list_pods") - 1)
        else:
            pods = [*self.store.values()]
        return [pod for pod in pods if select is None or select(pod.id, pod.name)]

    def get(self, resource_id, attempts=None):
        self._call("get_pod", resource_id)
        return self._get(resource_id)

    def find(self, name, attempts=None):
        self._call("find_pods", name)
        return [pod for pod in self.store.values() if pod.name == name and pod.status != "TERMINATED"]

    def find_named(self, names, attempts=None):
        """One ``list`` read, as the real one."""
        found: dict[str, Any] = {name: [] for name in names}
        for pod in self.list(attempts=attempts, select=lambda _pod_id, name: name in found):
            if pod.name in found and pod.status.upper() != "TERMINATED":
                found[pod.name].append(pod)
        return found

    def create(self, spec, shared_read=None):
        """``(pod, None)``: no placement was tried (the real one says what it tried)."""
        self._call("create_pod", spec.model_dump())
        pod = pod_view("pod-new", name=spec.name, image=spec.image, ports=[*spec.ports], env=dict(spec.env))
        self.store[pod.id] = pod
        return pod, None

    def update(self, pod_id, changes):
        self._call("update_pod", pod_id, dict(changes))
        self.store[pod_id] = self.store[pod_id].model_copy(update=changes)
        return self.store[pod_id]

    def action(self, pod_id, action):
        self._call(f"{action}_pod", pod_id)
        status = "EXITED" if action == "stop" else "STARTING"
        self.store[pod_id] = self.store[pod_id].model_copy(update={"status": status})
        return self.store[pod_id]

    def delete(self, resource_id):
        self._call("delete_pod", resource_id)
        self.store.pop(resource_id)


class FakeEndpoints(FakeResource):
    """``health``/``workers``: scripted ``health``/``workers`` answers (a view or an exception each; the last
    repeats); without ``workers`` the worker list is empty."""

    kind = "endpoint"

    def __init__(self, backend: FakeBackend, items: Any = (), health: Any = (), workers: Any = ()) -> None:
        super().__init__(backend, items)
        self.health_answers = [*health]
        self.worker_answers = [*workers]

    def list(self, attempts=None):
        self._call("list_endpoints")
        return [*self.store.values()]

    def get(self, resource_id, attempts=None):
        self._call("get_endpoint", resource_id)
        return self._get(resource_id)

    def find(self, name, attempts=None):
        self._call("find_endpoints", name)
        return [endpoint for endpoint in self.store.values() if endpoint.name == name]

    def create(self, spec):
        self._call("create_endpoint", spec.model_dump())
        view = EndpointView(id="ep-new", **spec.model_dump())
        self.store[view.id] = view
        return view

    def update(self, endpoint_id, changes):
        self._call("update_endpoint", endpoint_id, dict(changes))
        self.store[endpoint_id] = self.store[endpoint_id].model_copy(update=changes)
        return self.store[endpoint_id]

    def delete(self, resource_id):
        self._call("delete_endpoint", resource_id)
        self.store.pop(resource_id)

    def health(self, endpoint_id, attempts=1):
        self._call("endpoint_health", endpoint_id, attempts)
        return _next(self.health_answers, self.backend.count("endpoint_health") - 1)

    def release(self, endpoint_id, attempts=None):
        return None  # no release: the wait describes none

    def workers(self, endpoint_id, attempts=None):
        self._call("endpoint_workers", endpoint_id, attempts)
        if not self.worker_answers:
            return WorkerSummary()
        return _next(self.worker_answers, self.backend.count("endpoint_workers") - 1)


class FakeTemplates(FakeResource):
    kind = "template"

    def list(self, attempts=None):
        self._call("list_templates")
        return [*self.store.values()]

    def get(self, resource_id, attempts=None):
        self._call("get_template", resource_id)
        return self._get(resource_id)

    def find(self, name, attempts=None):
        self._call("find_templates", name)
        return [template for template in self.store.values() if template.name == name]

    def create(self, spec):
        self._call("create_template", spec.model_dump())
        view = TemplateView(id="tpl-new", **spec.model_dump())
        self.store[view.id] = view
        return view

    def update(self, template_id, changes):
        self._call("update_template", template_id, dict(changes))
        self.store[template_id] = self.store[template_id].model_copy(update=changes)
        return self.store[template_id]

    def delete(self, resource_id):
        self._call("delete_template", resource_id)
        self.store.pop(resource_id)


class FakeClusters(FakeResource):
    """``members``: what ``pods(cluster_id)`` lists; a create that fails with ``create_error`` leaves a cluster
    behind first, as a 5xx after the API made one would."""

    kind = "cluster"

    def __init__(self, backend: FakeBackend, items: Any = (), members: Any = (), create_error: Any = None) -> None:
        super().__init__(backend, items)
        self.members = [*members]
        self.create_error = create_error

    def list(self, attempts=None):
        self._call("list_clusters")
        return [*self.store.values()]

    def get(self, resource_id, attempts=None):
        self._call("get_cluster", resource_id)
        return self._get(resource_id)

    def find(self, name, attempts=None):
        self._call("find_clusters", name)
        return [c for c in self.store.values() if c.name == name]

    def pods(self, cluster_id, attempts=None):
        self._call("list_cluster_pods", cluster_id)
        return [*self.members]

    def create(self, spec):
        self._call("create_cluster", spec.model_dump())
        if self.create_error is not None:
            self.store["c-late"] = ClusterView(**{**CLUSTER, "id": "c-late", "name": spec.name})
            raise self.create_error
        created = ClusterView(**{**CLUSTER, "id": "c-new", "name": spec.name})
        self.store[created.id] = created
        return created

    def rename(self, cluster_id, name):
        self._call("rename_cluster", cluster_id, name)
        return self.store[cluster_id].model_copy(update={"name": name})


class FakeGpus:
    """``answers``: what each catalog read returns or raises (the last repeats); ``reads`` counts them."""

    def __init__(self, answers: Any = ()) -> None:
        self.answers = [*answers]
        self.reads = 0

    def catalog(self, **query):
        self.reads += 1
        return _next(self.answers, self.reads - 1)


CLUSTER = {"id": "c1", "name": "train", "type": "TRAINING", "gpu_type_id": "NVIDIA H100 80GB HBM3",
           "gpu_count_per_pod": 1, "pod_count": 2}


class FakeBackend:
    """A backend of fakes: every call of its resources recorded in ``calls`` as ``(method, *args)``.

    * ``errors[method]``: an exception (raised by every call) or a list of them (one per call, ``None`` lets a
      call through) for any recorded method (``create_pod``, ``endpoint_health``, ...).
    * ``reads``, ``health``, ``workers``: the scripted answers of ``FakePods``/``FakeEndpoints``.
    """

    def __init__(self, *, pods: Any = (), endpoints: Any = (), templates: Any = (), clusters: Any = (),
                 members: Any = (), reads: Any = None, health: Any = (), workers: Any = (),
                 catalog: Any = ()) -> None:
        self.client = _NoClient()
        self.options: dict[str, Any] = {"serverless_url": "https://invoke.example.test/v2"}
        self.serverless_url = self.options["serverless_url"]
        self.errors: dict[str, Any] = {}
        self.calls: list[tuple] = []
        self.pods = FakePods(self, pods, reads)
        self.endpoints = FakeEndpoints(self, endpoints, health, workers)
        self.templates = FakeTemplates(self, templates)
        self.clusters = FakeClusters(self, clusters, members)
        self.gpus = FakeGpus(catalog)
        self.account = Account(self.client)
        # The real object over the refusing client, as ``account``: a test of secret_env gives one over a transport.
        self.secrets = Secrets(self.client)
        self.sshkeys = SshKeys(self.client)

    def record(self, method: str, *args: Any) -> None:
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

    def close(self) -> None:
        pass


def check_fake_matches_interface(fake: Any, real: Any) -> None:
    """Every public method the ``fake`` object defines exists on the ``real`` object with the same parameters
    (``**kwargs`` in the fake stands for the real keyword-only ones)."""
    for name, method in vars(type(fake)).items():
        if name.startswith("_") or not callable(method):
            continue
        real_method = getattr(real, name, None)
        where = f"{type(fake).__name__}.{name}"
        assert real_method is not None, f"{where} fakes a method the real {type(real).__name__} does not have"
        real_params = [p.name for p in inspect.signature(real_method).parameters.values() if p.kind != p.KEYWORD_ONLY]
        fake_params = [p.name for p in inspect.signature(getattr(fake, name)).parameters.values()
                       if p.kind not in (p.VAR_KEYWORD, p.KEYWORD_ONLY)]
        assert fake_params == real_params, f"{where}{fake_params} != {type(real).__name__}.{name}{real_params}"


def every_resource() -> tuple:
    """Every ``_backend`` resource class: what a test's backend may reach (a module names only its own)."""
    from ansible_collections.runpod.cloud.plugins.module_utils._backend import (
        account,
        clusters,
        connection,
        endpoints,
        jobs,
        pods,
        secrets,
        shared,
        templates,
    )

    return (account.Account, clusters.Clusters, endpoints.Endpoints, connection.Gpus, jobs.Jobs, pods.Pods,
            secrets.Secrets, shared.SshKeys, templates.Templates)


def full_backend(options: Any, **kwargs: Any) -> Any:
    """``make_backend`` over every resource class (``every_resource``)."""
    from ansible_collections.runpod.cloud.plugins.module_utils._backend.connection import make_backend

    return make_backend(options, uses=every_resource(), **kwargs)


def real_backend() -> Any:
    """The real ``Backend`` over the fake's client (no request can be sent): what the fakes are checked against."""
    from ansible_collections.runpod.cloud.plugins.module_utils._backend.connection import Backend

    return Backend(_NoClient(), {}, every_resource())


def install_backend(monkeypatch: Any, backend: Any) -> None:
    """Make modules build ``backend`` instead of a real one (``None``: building one fails the test)."""
    from ansible_collections.runpod.cloud.plugins.module_utils._module import base as _base

    def make_backend(options: Any, **kwargs: Any) -> Any:
        if backend is None:
            raise AssertionError("the module built an API client although the input was refused")
        return backend

    monkeypatch.setattr(_base, "make_backend", make_backend)


def run_module(module: Any, backend: Any, capsys: Any, monkeypatch: Any, *, check_mode: bool = False,
               diff: bool = False, **args: Any) -> dict[str, Any]:
    """Run ``module.main()`` with ``args`` against ``backend`` (``None``: building one fails the test) and
    return its parsed result; the API key it is given never appears in the output."""
    install_backend(monkeypatch, backend)
    args = {"api_key": UNIT_API_KEY, **args}  # a test may pass api_key="" (no key)
    return module_result(module, args, capsys, check_mode=check_mode, diff=diff)


def module_result(module: Any, args: dict[str, Any], capsys: Any, *, check_mode: bool = False,
                  diff: bool = False) -> dict[str, Any]:
    """``module.main()`` run here with ``args`` as a task's module gets them: its parsed result, in which the
    ``api_key`` it was given never appears."""
    from ansible.module_utils.testing import patch_module_args

    given = {**args, **({"_ansible_check_mode": True} if check_mode else {}),
             **({"_ansible_diff": True} if diff else {})}
    capsys.readouterr()  # what came before is not this module's output
    with patch_module_args(given), pytest.raises(SystemExit):
        module.main()
    out = capsys.readouterr().out
    assert not args.get("api_key") or args["api_key"] not in out, "the API key is in the module's output"
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

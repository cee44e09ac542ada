# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The approaches compared by the benchmark, each run against the same simulator and boot schedule.

Each runner creates the pods named ``names`` and waits until it believes they answer on SSH, and returns a
``RunRecord`` with, per pod, the moment the approach *reported* it ready (its task returned). Ground truth
(when sshd first answered) comes from the ``BannerWatcher``, not from here.
"""

from __future__ import annotations

import contextlib
import json
import math
import stat
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchlib import GPU, IMAGE, PYTHON, WAIT_INTERVAL, PlaybookRun, run_playbook
from helpers.fakes import full_backend

from ansible_collections.runpod.cloud.plugins.module_utils._backend.pods import pod_create_body
from ansible_collections.runpod.cloud.plugins.module_utils._engine.outcome import WaitError
from ansible_collections.runpod.cloud.plugins.module_utils._engine.pod_pollers import PodPoller
from ansible_collections.runpod.cloud.plugins.module_utils._engine.poll import CADENCE_ENV, until
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import POD, PodSpec

MAX_FORKS = 50


@dataclass
class RunRecord:
    approach: str
    names: list[str]
    started: float
    finished: float
    ready_at: dict[str, float] = field(default_factory=dict)  # task return that reported the pod ready
    job_done_at: dict[str, float] = field(default_factory=dict)  # async only: when the background job ended
    failed: dict[str, str] = field(default_factory=dict)  # name -> code/message
    wait_window: tuple[float, float] | None = None  # batch approaches: the batch wait task
    waits: dict[str, tuple[int, float]] = field(default_factory=dict)  # name -> (API reads, wait length T) as reported
    command: str = ""
    rc: int = 0
    workdir: str = ""
    log_tail: str = ""
    module: dict[str, Any] = field(default_factory=dict)  # pod_count: the module process's peak RSS and CPU

    @property
    def ok(self) -> bool:
        return not self.failed and len(self.ready_at) == len(self.names)


def _vars(names: list[str], timeout: float, gpus: list[str] | None = None) -> dict[str, Any]:
    gpus = list(gpus or [GPU])
    return {
        "bench_names": names,
        "bench_image": IMAGE,
        # A hand-written uri create names one GPU type (the first preference); the collection takes the list.
        "bench_gpu": gpus[0],
        "bench_gpus": gpus,
        "bench_timeout": int(timeout),
        "bench_retries": max(1, math.ceil(timeout / WAIT_INTERVAL)),
    }


def _record(approach: str, names: list[str], run: PlaybookRun) -> RunRecord:
    return RunRecord(
        approach,
        names,
        run.started,
        run.finished,
        command=run.command,
        rc=run.rc,
        workdir=str(run.workdir),
        log_tail=run.log[-3000:],
    )


def _code(res: dict[str, Any]) -> str:
    return str(res.get("code") or res.get("msg") or "failed")[:160]


# -- 1. naive playbook -----------------------------------------------------------------------------------------
def naive(sim, names: list[str], timeout: float, gpus: list[str] | None = None) -> RunRecord:
    run = run_playbook(sim, "naive.yml", _vars(names, timeout, gpus), forks=min(len(names), MAX_FORKS))
    record = _record("naive", names, run)
    for event in run.task_events("Wait for ssh"):
        if event["ev"] == "ok":
            record.ready_at[event["host"]] = event["t"]
        else:
            record.failed[event["host"]] = _code(event["res"])
    for event in run.task_events("Wait until running", ("item_failed",)) + run.task_events(
        "Create pods", ("item_failed",)
    ):
        record.failed.setdefault(event["item"], _code(event["res"]))
    for name in names:
        if name not in record.ready_at:
            record.failed.setdefault(name, "never reported ready (rc=%d)" % run.rc)
    return record


# -- 2. reference discipline (our engine, configured like runpodctl) ------------------------------------------------
def engine(
    sim,
    names: list[str],
    timeout: float,
    *,
    probe_interval: float | None,
    label: str,
    reread: bool = True,
    cadence: str = "adaptive",
    gpus: list[str] | None = None,
    one_post: bool = False,
) -> RunRecord:
    """One thread per pod, like N concurrent ``runpodctl pod create --wait``: create, then ``until`` with a
    ``PodPoller`` (the reference: one list read per 5 s, ``cadence="fixed"``; with ``probe_interval=None`` the
    SSH probe runs only on a read), then the reference's post-wait re-read (``pod get``)."""
    record = RunRecord(label, names, time.time(), 0.0)
    record.command = (
        "python tests/bench/run_bench.py: _wait.until(PodPoller(...), interval=5, probe_interval=%r, cadence=%r), "
        "one thread per pod" % (probe_interval, cadence)
    )
    lock = threading.Lock()
    options = {"api_key": sim.api_key, "api_url": sim.urls["api_v2"]}

    def one(name: str) -> None:
        backend = full_backend(options)
        try:
            spec = PodSpec(name=name, image=IMAGE, gpu_type_ids=(gpus or [GPU]), ports=["22/tcp"])
            if one_post:
                # runpodctl's pod create sends one POST for one GPU type (--gpuType, the first preference),
                # without a catalog read.
                body = pod_create_body(spec, spec.gpu_type_ids[0])
                pod = POD.read(backend.client.request("POST", "pods", json=body))
            else:
                pod, _placement = backend.pods.create(spec)
            until(
                PodPoller(backend, pod.id),
                label="ssh on pod %s" % pod.id,
                timeout=timeout,
                interval=WAIT_INTERVAL,
                probe_interval=probe_interval,
                resource_id=pod.id,
                cadence=cadence,
            )
            if reread:
                backend.pods.get(pod.id)
            with lock:
                record.ready_at[name] = time.time()
        except WaitError as err:
            with lock:
                record.failed[name] = err.code
        except Exception as err:
            with lock:
                record.failed[name] = "%s: %s" % (type(err).__name__, str(err)[:120])
        finally:
            backend.close()

    threads = [threading.Thread(target=one, args=(name,), daemon=True) for name in names]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout + 120)
    record.finished = time.time()
    return record


def reference(sim, names: list[str], timeout: float, gpus: list[str] | None = None) -> RunRecord:
    return engine(sim, names, timeout, probe_interval=None, label="reference", cadence="fixed", gpus=gpus,
                  one_post=True)


def engine_default(sim, names: list[str], timeout: float) -> RunRecord:
    return engine(sim, names, timeout, probe_interval=0.25, label="engine_python", reread=False)


# -- 3. runpod.cloud ---------------------------------------------------------------------------------------------
def _cadence_env(cadence: str) -> dict[str, str]:
    """The engine's cadence for every module of the run (set either way: the harness's own env must not leak)."""
    return {CADENCE_ENV: cadence}


def _wait_reads(res: dict[str, Any]) -> tuple[int, float] | None:
    """(API reads, wait length T) from a module result's ``wait`` block as the bench callback keeps it; T is the
    last transition's time to the millisecond (``end``, which the callback takes from ``history``), which on success
    is the moment the wait ended. Never ``elapsed``: it is whole seconds."""
    wait = res.get("wait") or {}
    if wait.get("polls") is None or wait.get("end") is None:
        return None
    return int(wait["polls"]), float(wait["end"])


def pod_wait(
    sim, names: list[str], timeout: float, cadence: str = "adaptive", gpus: list[str] | None = None
) -> RunRecord:
    hosts = {name: {} for name in names}
    run = run_playbook(sim, "pod_wait.yml", _vars(names, timeout, gpus), hosts=hosts, forks=min(len(names), MAX_FORKS),
                       env_extra=_cadence_env(cadence))
    record = _record("pod_wait" if cadence == "adaptive" else "pod_wait_fixed", names, run)
    for event in run.task_events("Create and wait"):
        if event["ev"] == "ok":
            record.ready_at[event["host"]] = event["t"]
        else:
            record.failed[event["host"]] = _code(event["res"])
        reads = _wait_reads(event["res"])
        if reads is not None:
            record.waits[event["host"]] = reads
    _missing(record, run)
    return record


def pod_wait_fixed(sim, names: list[str], timeout: float) -> RunRecord:
    return pod_wait(sim, names, timeout, cadence="fixed")


def _batch(record: RunRecord, run: PlaybookRun, names: list[str], task: str = "Batch wait") -> None:
    events = run.task_events(task)
    record.wait_window = run.task_window(task)
    for event in events:
        if event["ev"] == "ok":
            for name in names:
                record.ready_at[name] = event["t"]
        else:
            for name in names:
                record.failed[name] = _code(event["res"])
        reads = _wait_reads(event["res"])
        if reads is not None:
            record.waits["*"] = reads
    _missing(record, run)


def pod_batch(
    sim, names: list[str], timeout: float, cadence: str = "adaptive", gpus: list[str] | None = None
) -> RunRecord:
    run = run_playbook(sim, "pod_batch.yml", _vars(names, timeout, gpus), env_extra=_cadence_env(cadence))
    record = _record("pod_batch" if cadence == "adaptive" else "pod_batch_fixed", names, run)
    for event in run.task_events("Create without waiting", ("item_failed",)):
        record.failed[event["item"]] = _code(event["res"])
    _batch(record, run, names)
    return record


def pod_batch_fixed(sim, names: list[str], timeout: float) -> RunRecord:
    return pod_batch(sim, names, timeout, cadence="fixed")


def pod_async(sim, names: list[str], timeout: float) -> RunRecord:
    run = run_playbook(sim, "pod_async.yml", _vars(names, timeout), env_extra=_cadence_env("adaptive"))
    record = _record("pod_async", names, run)
    files = {}
    for event in run.task_events("Start create and wait", ("item_ok",)):
        if event["res"].get("results_file"):
            files[event["item"]] = event["res"]["results_file"]
    for event in run.task_events("Collect"):
        if event["ev"] == "item_ok":
            record.ready_at[event["item"]] = event["t"]
        elif event["ev"] == "item_failed":
            record.failed[event["item"]] = _code(event["res"])
    for name, path in files.items():
        with contextlib.suppress(OSError):
            record.job_done_at[name] = Path(path).stat().st_mtime
    _missing(record, run)
    return record


def measuring_interpreter() -> tuple[Path, Path]:
    """A sh shim running ``measure_python.py`` (the module's wall time, CPU and peak RSS) and the file it appends to."""
    workdir = Path(tempfile.mkdtemp(prefix="runpod_bench_mem_"))
    shim = workdir / "python-measured"
    shim.write_text('#!/bin/sh\nexec %s %s "$@"\n' % (PYTHON, Path(__file__).resolve().parent / "measure_python.py"))
    shim.chmod(shim.stat().st_mode | stat.S_IXUSR)
    return shim, workdir / "mem.jsonl"


def pod_count(sim, names: list[str], timeout: float, gpus: list[str] | None = None) -> RunRecord:
    """One ``runpod.cloud.pod`` task with ``count``: names must be ``{base}-1`` .. ``{base}-N``."""
    base = names[0].rsplit("-", 1)[0]
    shim, mem_file = measuring_interpreter()
    extra = dict(_vars(names, timeout, gpus), bench_base=base, bench_interpreter=str(shim))
    env = dict(_cadence_env("adaptive"), RUNPOD_BENCH_MEM=str(mem_file), RUNPOD_BENCH_PYTHON=PYTHON)
    run = run_playbook(sim, "pod_count.yml", extra, env_extra=env)
    record = _record("pod_count", names, run)
    with contextlib.suppress(OSError, ValueError, IndexError):
        measured = [json.loads(line) for line in mem_file.read_text().splitlines()]
        module = [entry for entry in measured if entry["module"] == "pod"][-1]
        record.module = {"peak_rss_mb": round(module["maxrss_mb"], 1),
                         "cpu_s": round(module["user"] + module["sys"], 3)}
    _batch(record, run, names, "Create and wait")
    return record


def _missing(record: RunRecord, run: PlaybookRun) -> None:
    for name in record.names:
        if name not in record.ready_at:
            record.failed.setdefault(name, "never reported ready (rc=%d)" % run.rc)


APPROACHES = {
    "naive": naive,
    "reference": reference,
    "pod_wait_fixed": pod_wait_fixed,
    "pod_wait": pod_wait,
    "pod_batch_fixed": pod_batch_fixed,
    "pod_batch": pod_batch,
    "pod_async": pod_async,
    "pod_count": pod_count,
    "engine_python": engine_default,
}

LABELS = {
    "naive": "naive playbook (uri + until delay 5 + wait_for)",
    "reference": "reference discipline (engine: 1 read / 5 s, probe only on reads)",
    "pod_wait_fixed": "runpod.cloud.pod wait: true, fixed cadence (one task per host)",
    "pod_wait": "runpod.cloud.pod wait: true, adaptive cadence (one task per host)",
    "pod_batch_fixed": "runpod.cloud.pod wait: false loop + one pod_info batch wait, fixed cadence",
    "pod_batch": "runpod.cloud.pod wait: false loop + one pod_info batch wait, adaptive cadence",
    "pod_async": "runpod.cloud.pod wait: true under async + async_status",
    "pod_count": "runpod.cloud.pod count: N, wait: true (one task: concurrent creates, one batch wait)",
    "engine_python": "engine in Python, module defaults (probe every 0.25 s), no Ansible",
}

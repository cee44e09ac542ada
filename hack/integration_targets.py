# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Run the ``ansible-test integration`` targets (tests/integration/targets) against the simulator or RunPod.

``make targets`` runs ``python hack/integration_targets.py sim [TARGET ...]``: it copies the collection to a
temporary ``ansible_collections/runpod/cloud`` tree (ansible-test needs that layout), starts the local simulator
on a free loopback port (``--ready-file``), writes ``tests/integration/integration_config.yml`` into the copy
(ansible-test passes its variables to every target as extra vars; it does not pass ``RUNPOD_*`` environment
variables through), runs every target in one ``ansible-test integration --local`` and stops the simulator.

``make live`` runs ``python hack/integration_targets.py live [TARGET ...]`` against the account of
``RUNPOD_API_KEY`` (docs/dev/live-tests.md): it refuses without ``RUNPOD_API_KEY`` or ``RUNPOD_LIVE_MAX_USD``, reads
the GPU catalog, estimates the run's cost and refuses when the estimate exceeds the cap, all before anything is
created; then it runs the targets under a unique prefix and always ends with a sweep (tests/integration/live/sweep.yml)
that deletes every resource whose name starts with the prefix, on success, failure, Ctrl-C or SIGTERM.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TARGETS_DIR = REPO / "tests" / "integration" / "targets"
SWEEP_PLAYBOOK = REPO / "tests" / "integration" / "live" / "sweep.yml"
BIN = Path(os.environ.get("VENV_BIN") or Path(sys.executable).parent)
PYTHON_VERSION = f"{sys.version_info.major}.{sys.version_info.minor}"

# RunPod's own URLs (the modules' defaults); used only when RUNPOD_API_URL / RUNPOD_SERVERLESS_URL are unset.
DEFAULT_API_URL = "https://api.runpod.io/v2"
DEFAULT_SERVERLESS_URL = "https://api.runpod.ai/v2"

# What each target keeps running at most at once (live cost estimate): GPUs of the cheapest type, CPU pods or
# workers, and cluster GPUs. The targets use CPU pods wherever the behaviour allows.
PLAN = {
    "billing_info": {},
    "cluster": {"cluster_gpus": 2},
    "cluster_info": {"cluster_gpus": 2},
    "container_registry": {},
    "endpoint": {"cpu": 1},
    "endpoint_info": {},
    "gpu_type_info": {},
    "inventory_runpod": {"cpu": 1},
    "network_volume": {"volume_gb": 11},
    "network_volume_info": {"volume_gb": 10},
    "pod": {"cpu": 1},
    "pod_info": {"cpu": 2},
    "role_hosts": {"cpu": 1},
    "secret": {},
    "ssh_key": {},
    "template": {},
}
# Price assumptions the REST v2 catalog does not publish (USD per hour): a 2-vCPU cpu3c pod or worker and a GB
# of network volume (RunPod bills 0.07 USD per GB-month, rounded up here).
CPU_USD_PER_HOUR = float(os.environ.get("RUNPOD_LIVE_CPU_USD_PER_HOUR", "0.10"))
VOLUME_USD_PER_GB_HOUR = 0.0001
# What ansible-core prints before a deprecation: a run whose output has one fails (ansible_test).
DEPRECATION = "[DEPRECATION WARNING]"
# How long a target may keep what it created (hours): the targets' wait timeouts are far below it.
HOURS_PER_TARGET = float(os.environ.get("RUNPOD_LIVE_HOURS_PER_TARGET", "0.25"))


def say(message: str) -> None:
    print(f"targets: {message}", flush=True)


def fail(message: str, code: int = 2) -> None:
    print(f"targets: {message}", file=sys.stderr, flush=True)
    sys.exit(code)


def all_targets() -> list[str]:
    return sorted(path.name for path in TARGETS_DIR.iterdir() if (path / "aliases").is_file())


def copy_tree(root: Path) -> Path:
    """The collection's files (tracked and untracked, not ignored) under ``root/ansible_collections/runpod/cloud``."""
    tree = root / "ansible_collections" / "runpod" / "cloud"
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO, capture_output=True, check=True,
    ).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = REPO / name
        if source.is_file():
            target = tree / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return tree


def write_config(tree: Path, values: dict[str, object]) -> Path:
    """``tests/integration/integration_config.yml`` in the copy (JSON is YAML), readable by its owner only."""
    path = tree / "tests" / "integration" / "integration_config.yml"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(json.dumps(values, indent=2) + "\n")
    return path


def ansible_test(tree: Path, targets: list[str]) -> int:
    """ansible-test's exit code, or 1 when its output (stderr merged, passed through as it comes) carries a
    deprecation warning: no ansible-core may warn of one (tests/integration/callback_plugins/target_deprecations.py
    prints a task's, which ansible-test's ANSIBLE_DEPRECATION_WARNINGS=false would hide)."""
    env = dict(os.environ)
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    command = [str(BIN / "ansible-test"), "integration", "--local", "--python", PYTHON_VERSION, "--color", "no",
               *os.environ.get("RUNPOD_TARGETS_ARGS", "").split(), *targets]
    say(" ".join(command[1:]))
    deprecations = []
    with subprocess.Popen(command, cwd=tree, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          errors="replace") as run:
        assert run.stdout is not None
        for line in run.stdout:
            print(line, end="", flush=True)
            if DEPRECATION in line:
                deprecations.append(line.rstrip())
    if deprecations and run.returncode == 0:
        say(f"FAILED: {len(deprecations)} deprecation warning(s); fix their cause:\n" + "\n".join(deprecations))
        return 1
    return run.returncode


def run_prefix() -> str:
    """``rpct-<8 hex>``; RUNPOD_LIVE_PREFIX chooses one (``rpct-`` and lowercase letters or digits), e.g. to sweep
    what an earlier, killed run left."""
    chosen = os.environ.get("RUNPOD_LIVE_PREFIX", "")
    if chosen:
        if not re.fullmatch(r"rpct-[0-9a-z]+", chosen):
            fail(f"refusing: RUNPOD_LIVE_PREFIX={chosen!r} must be rpct- and lowercase letters or digits")
        return chosen
    return "rpct-" + secrets.token_hex(4)


# -- simulator ------------------------------------------------------------------------------------------------


def start_simulator(workdir: Path, time_scale: str) -> tuple[subprocess.Popen[bytes], dict[str, object]]:
    ready_file = workdir / "ready.json"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO / "tests" / "simulator"), env.get("PYTHONPATH")]))
    with open(workdir / "sim.log", "wb") as log:
        process = subprocess.Popen(
            [str(BIN / "python"), "-m", "runpod_sim", "--ready-file", str(ready_file), "--state-dir",
             str(workdir / "sim-state"), "--time-scale", time_scale],
            stdout=log, stderr=subprocess.STDOUT, env=env, cwd=workdir,
        )
    deadline = time.monotonic() + 60
    while not ready_file.exists():
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            fail("the simulator did not start:\n" + (workdir / "sim.log").read_text(errors="replace"))
        time.sleep(0.05)
    return process, json.loads(ready_file.read_text())


def stop_simulator(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def run_sim(targets: list[str]) -> int:
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="runpod-targets-") as tmp:
        workdir = Path(tmp)
        tree = copy_tree(workdir)
        process, ready = start_simulator(workdir, os.environ.get("RUNPOD_TARGETS_TIME_SCALE", "0.05"))
        say(f"simulator at {ready['base']} (pid {process.pid})")
        try:
            write_config(tree, {
                "runpod_api_key": ready["api_key"],
                "runpod_api_url": ready["api_v2"],
                "runpod_serverless_url": ready["serverless"],
                "runpod_prefix": run_prefix(),
                "runpod_live": False,
                "runpod_wait_interval": "1s",
                "runpod_wait_timeout": "2m",
                "runpod_gpu_type_id": "NVIDIA RTX A4000",
                "runpod_cluster_gpu_type_id": "NVIDIA H100 80GB HBM3",
            })
            rc = ansible_test(tree, targets)
        finally:
            stop_simulator(process)
    say(f"{'passed' if rc == 0 else 'FAILED'} in {time.monotonic() - started:.0f} s")
    return rc


# -- live -----------------------------------------------------------------------------------------------------


def cheapest(gpus: list[dict[str, object]], wanted: str | None = None) -> tuple[str, float]:
    """The cheapest secure-cloud GPU type the catalog offers for pods (or ``wanted``), with its hourly price."""
    offers = []
    for gpu in gpus:
        price = gpu.get("price") or {}
        hourly = price.get("secure") if isinstance(price, dict) else None
        if gpu.get("secure") is not False and isinstance(hourly, (int, float)) and hourly > 0:
            offers.append((float(hourly), str(gpu["id"])))
    if wanted:
        matches = [offer for offer in offers if offer[1] == wanted]
        if not matches:
            fail(f"the catalog does not price {wanted!r}; set RUNPOD_LIVE_CLUSTER_GPU to a type it lists")
        return wanted, matches[0][0]
    if not offers:
        fail("the catalog lists no priced GPU type; nothing was created")
    price, gpu_id = min(offers)
    return gpu_id, price


def read_catalog(api_url: str, api_key: str) -> list[dict[str, object]]:
    import httpx  # pylint: disable=import-outside-toplevel  # the venv has it; imported late so --help needs nothing

    response = httpx.get(
        api_url.rstrip("/") + "/catalog/gpus", params={"include": "AVAILABILITY", "product": "POD"},
        headers={"Authorization": f"Bearer {api_key}"}, timeout=30,
    )
    if response.status_code != 200:
        fail(f"reading the GPU catalog answered {response.status_code}: {response.text[:300]}; nothing was created")
    body = response.json()
    return body.get("gpus", body) if isinstance(body, dict) else body


def estimate(targets: list[str], gpu_price: float, cluster_price: float) -> tuple[float, list[str]]:
    total, lines = 0.0, []
    for target in targets:
        plan = PLAN.get(target, {})
        hourly = (plan.get("gpu", 0) * gpu_price + plan.get("cpu", 0) * CPU_USD_PER_HOUR
                  + plan.get("cluster_gpus", 0) * cluster_price + plan.get("volume_gb", 0) * VOLUME_USD_PER_GB_HOUR)
        cost = hourly * HOURS_PER_TARGET
        total += cost
        lines.append(f"  {target:<22} {cost:8.4f} USD  ({plan or 'no billed resource'})")
    return total, lines


def sweep(tree: Path, config: Path, prefix: str) -> int:
    """Delete everything named ``prefix*`` with the collection's own modules; prints what it found and deleted."""
    say(f"sweeping every resource named {prefix}* ...")
    env = dict(os.environ)
    env.update({
        "PATH": f"{BIN}{os.pathsep}{env.get('PATH', '')}",
        "ANSIBLE_COLLECTIONS_PATH": str(tree.parents[2]),
        "ANSIBLE_NOCOLOR": "1",
    })
    playbook = tree / SWEEP_PLAYBOOK.relative_to(REPO)
    command = [str(BIN / "ansible-playbook"), "-i", "localhost,", "-c", "local", str(playbook),
               "-e", f"@{config}", "-e", f"ansible_python_interpreter={BIN / 'python'}"]
    # The sweep runs to its end even when the user presses Ctrl-C again.
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        return subprocess.run(command, env=env, check=False, start_new_session=True).returncode
    finally:
        signal.signal(signal.SIGINT, previous)


def run_live(targets: list[str]) -> int:
    api_key = os.environ.get("RUNPOD_API_KEY", "")
    cap_text = os.environ.get("RUNPOD_LIVE_MAX_USD", "")
    if not api_key:
        fail("refusing: RUNPOD_API_KEY is not set (make live bills the account of that key; nothing was created)")
    if not cap_text:
        fail("refusing: RUNPOD_LIVE_MAX_USD is not set (the most the run may cost, in USD; nothing was created)")
    try:
        cap = float(cap_text)
    except ValueError:
        cap = -1.0
    if not cap > 0:
        fail(f"refusing: RUNPOD_LIVE_MAX_USD={cap_text!r} is not a positive number of USD; nothing was created")
    prefix = run_prefix()
    api_url = os.environ.get("RUNPOD_API_URL") or DEFAULT_API_URL
    serverless_url = os.environ.get("RUNPOD_SERVERLESS_URL") or DEFAULT_SERVERLESS_URL
    say(f"API {api_url}, serverless {serverless_url}")

    gpus = read_catalog(api_url, api_key)
    gpu_id, gpu_price = cheapest(gpus)
    cluster_gpu_id, cluster_price = cheapest(gpus, os.environ.get("RUNPOD_LIVE_CLUSTER_GPU", "NVIDIA H100 80GB HBM3"))
    total, lines = estimate(targets, gpu_price, cluster_price)
    say(f"cheapest GPU {gpu_id} at {gpu_price} USD/h, cluster GPU {cluster_gpu_id} at {cluster_price} USD/h, "
        f"CPU {CPU_USD_PER_HOUR} USD/h, {HOURS_PER_TARGET} h per target at most")
    print("\n".join(lines), flush=True)
    say(f"estimated cost {total:.2f} USD, cap {cap:.2f} USD")
    if total > cap:
        fail(f"refusing: the estimate ({total:.2f} USD) exceeds RUNPOD_LIVE_MAX_USD ({cap:.2f} USD); nothing was "
             "created. Raise the cap or pick fewer targets (make live TARGET=...).")

    say(f"run prefix {prefix}")
    rc = 1
    images = {name: os.environ[env] for name, env in (("runpod_cpu_image", "RUNPOD_LIVE_CPU_IMAGE"),
                                                      ("runpod_cluster_image", "RUNPOD_LIVE_CLUSTER_IMAGE"))
              if os.environ.get(env)}
    with tempfile.TemporaryDirectory(prefix="runpod-live-") as tmp:
        tree = copy_tree(Path(tmp))
        config = write_config(tree, {
            "runpod_api_key": api_key,
            "runpod_api_url": api_url,
            "runpod_serverless_url": serverless_url,
            "runpod_prefix": prefix,
            "runpod_live": True,
            "runpod_wait_interval": "10s",
            "runpod_wait_timeout": "10m",
            "runpod_gpu_type_id": gpu_id,
            "runpod_cluster_gpu_type_id": cluster_gpu_id,
            **images,
        })

        def interrupted(signum: int, _frame: object) -> None:
            raise KeyboardInterrupt(f"signal {signum}")

        previous = signal.signal(signal.SIGTERM, interrupted)
        try:
            rc = ansible_test(tree, targets)
        except KeyboardInterrupt:
            say("interrupted: sweeping before exit")
            rc = 130
        finally:
            signal.signal(signal.SIGTERM, previous)
            swept = sweep(tree, config, prefix)
            if swept != 0:
                say(f"THE SWEEP FAILED (rc {swept}): check the account for resources named {prefix}*")
                rc = rc or swept
    say(f"{'passed' if rc == 0 else 'FAILED'} (prefix {prefix})")
    return rc


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("mode", choices=["sim", "live"])
    parser.add_argument("targets", nargs="*", help="target names (default: every target)")
    args = parser.parse_args(argv)
    known = all_targets()
    targets = [name for item in args.targets for name in item.split()] or known
    unknown = sorted(set(targets) - set(known))
    if unknown:
        fail(f"unknown target(s): {', '.join(unknown)} (targets: {', '.join(known)})")
    return run_sim(targets) if args.mode == "sim" else run_live(targets)


if __name__ == "__main__":
    sys.exit(main())

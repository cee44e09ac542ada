# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""``python -m runpod_sim``: run the simulator in the foreground on loopback.

Prints the URLs and the ``export RUNPOD_...`` line to paste; ``--ready-file`` writes them as JSON once listening.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import signal
import socket
import sys
from pathlib import Path

import uvicorn

from . import DEFAULT_API_KEY
from .app import Sim
from .store import SSH_BEHAVIOURS, SimConfig


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m runpod_sim", description="Local RunPod API simulator (loopback only)."
    )
    parser.add_argument("--port", type=int, default=0, help="HTTP port on 127.0.0.1 (default 0: a free port)")
    parser.add_argument(
        "--api-key",
        default=os.environ.get("RUNPOD_SIM_API_KEY", DEFAULT_API_KEY),
        help="the API key every surface requires (default %(default)s)",
    )
    parser.add_argument("--ready-file", help="write a JSON file with the URLs once listening")
    parser.add_argument("--state-dir", help="where per-pod HOME directories live (default: a temp dir removed on exit)")
    parser.add_argument("--time-scale", type=float, default=1.0, help="multiplier for every simulated delay")
    parser.add_argument("--provisioning-delay", type=float, default=5.0, help="seconds in PROVISIONING")
    parser.add_argument("--starting-delay", type=float, default=10.0, help="seconds in STARTING")
    parser.add_argument("--ssh-delay", type=float, default=0.0, help="seconds after RUNNING before port 22 answers")
    parser.add_argument("--ssh-behaviour", choices=SSH_BEHAVIOURS, default="sshd", help="what answers on public 22")
    parser.add_argument(
        "--propagation-lag", type=float, default=3.0, help="seconds before a new endpoint's /health stops answering 404"
    )
    parser.add_argument("--worker-boot-delay", type=float, default=5.0, help="seconds a serverless worker initializes")
    parser.add_argument(
        "--create-latency", type=float, default=1.0, help="seconds a pod create takes to answer (0: at once)"
    )
    parser.add_argument(
        "--rate-limit",
        default="",
        help='RunPod\'s quota: a RateLimit-Policy text (\'"minute";q=60;w=60, "hour";q=3000;w=3600, ...\'), '
        '"example" for the v2 document\'s policy, or an integer of REST v2 requests per (simulated) minute; '
        'default: off (no quota headers, never 429)',
    )
    parser.add_argument(
        "--page-size",
        type=int,
        default=1000,
        help="server-side page size of every cursor-paged list, 1-1000 (default the document's 1000; "
        "2 or 3 makes every list cross pages)",
    )
    parser.add_argument("--log-level", default="warning", choices=["debug", "info", "warning", "error"])
    return parser


def config_from_args(args: argparse.Namespace) -> SimConfig:
    if args.time_scale <= 0:
        raise SystemExit("--time-scale must be greater than 0")
    if not 1 <= args.page_size <= 1000:
        raise SystemExit("--page-size must be from 1 to 1000")
    return SimConfig(
        time_scale=args.time_scale,
        provisioning_delay=args.provisioning_delay,
        starting_delay=args.starting_delay,
        ssh_delay=args.ssh_delay,
        ssh_behaviour=args.ssh_behaviour,
        propagation_lag=args.propagation_lag,
        worker_boot_delay=args.worker_boot_delay,
        create_latency=args.create_latency,
        page_size=args.page_size,
        **rate_limit_config(args.rate_limit),
    )


def rate_limit_config(value: str) -> dict:
    """``--rate-limit``: an integer is the per-minute quota (0: off), anything else a policy text."""
    text = str(value or "").strip()
    if text.isdigit():
        return {"rate_limit_per_minute": int(text)}
    from .quota import parse_policy
    from .store import ConfigError

    try:
        parse_policy(text)
    except ConfigError as error:
        raise SystemExit(f"--rate-limit: {error}") from None
    return {"rate_limit": text}


def export_lines(urls: dict[str, str], api_key: str) -> list[str]:
    return [
        f"export RUNPOD_API_KEY={api_key} RUNPOD_API_URL={urls['api_v2']} RUNPOD_SERVERLESS_URL={urls['serverless']}",
    ]


async def serve(args: argparse.Namespace) -> None:
    sim = Sim(config_from_args(args), api_key=args.api_key, state_dir=args.state_dir)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", args.port))  # loopback only, by design
    port = sock.getsockname()[1]
    sim.base_url = f"http://127.0.0.1:{port}"
    config = uvicorn.Config(
        sim.asgi_app(), log_level=args.log_level, access_log=False, lifespan="on", timeout_graceful_shutdown=2
    )
    server = uvicorn.Server(config)

    async def announce() -> None:
        while not server.started:
            await asyncio.sleep(0.01)
        urls = sim.urls()
        print(f"runpod_sim listening on {urls['base']} (pid {os.getpid()})")
        for label, key in (
            ("REST v2", "api_v2"),
            ("serverless", "serverless"),
            ("admin", "admin"),
        ):
            print(f"  {label:<11} {urls[key]}")
        for line in export_lines(urls, args.api_key):
            print(line)
        sys.stdout.flush()
        if args.ready_file:
            target = Path(args.ready_file)
            tmp = target.with_name(target.name + ".tmp")
            tmp.write_text(json.dumps({**urls, "api_key": args.api_key, "pid": os.getpid(), "port": port}))
            os.replace(tmp, target)

    announcer = asyncio.create_task(announce())
    await server.serve(sockets=[sock])
    announcer.cancel()


def quiet_lost_peers(record: logging.LogRecord) -> bool:
    """asyncio's "socket.send() raised exception." (a write after the peer hung up: an SSH banner probe or
    ssh-keyscan that closes at once while the pod's sshd still talks) says nothing a user can act on."""
    return not (record.name == "asyncio" and record.getMessage() == "socket.send() raised exception.")


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(name)s %(levelname)s %(message)s")
    logging.getLogger("asyncio").addFilter(quiet_lost_peers)
    # SIGTERM behaves like Ctrl-C so listeners and the state dir are cleaned up.
    signal.signal(signal.SIGTERM, lambda *_: signal.raise_signal(signal.SIGINT))
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())

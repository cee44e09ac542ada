# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""``python -m runpod_sim`` (``make sim``): its console shows nothing a user cannot act on."""

from __future__ import annotations

import logging

from runpod_sim import __main__ as sim_main


def _record(name: str, message: str, level: int = logging.WARNING) -> logging.LogRecord:
    return logging.LogRecord(name, level, __file__, 1, message, None, None)


def test_asyncios_lost_peer_warning_is_dropped_and_nothing_else(monkeypatch):
    asyncio_logger = logging.getLogger("asyncio")
    started = []
    monkeypatch.setattr(sim_main.asyncio, "run", lambda coroutine: started.append(coroutine.close()))
    monkeypatch.setattr(sim_main.signal, "signal", lambda *args: None)
    monkeypatch.setattr(sim_main.logging, "basicConfig", lambda **kwargs: None)
    monkeypatch.setattr(asyncio_logger, "filters", [])
    assert sim_main.main([]) == 0 and started
    # main() filters the asyncio logger: a write after a probe hung up is not shown; every other line is.
    assert asyncio_logger.filter(_record("asyncio", "socket.send() raised exception.")) is False
    assert asyncio_logger.filter(_record("asyncio", "Task exception was never retrieved", logging.ERROR))
    assert asyncio_logger.filter(_record("asyncio", "socket.send() raised exception. (other)"))
    assert sim_main.quiet_lost_peers(_record("uvicorn.error", "socket.send() raised exception."))

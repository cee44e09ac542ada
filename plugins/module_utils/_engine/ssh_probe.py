# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""SSH readiness probe (pure Python): TCP connect, then read the server's first 4 bytes.

RFC 4253 has the server speak first, so ``SSH-`` proves sshd is up without a handshake or a key; accept-then-close,
an HTTP answer or a merely mapped port are never ready (docs/dev/wait-and-status.md, section 4).
"""

from __future__ import annotations

import errno
import os
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

BANNER_PREFIX = b"SSH-"
DEFAULT_CONNECT_TIMEOUT = 5.0
DEFAULT_READ_TIMEOUT = 5.0
# Never pass a zero/negative timeout to a socket (zero means non-blocking).
_MIN_TIMEOUT = 0.001
_MAX_PROBE_THREADS = 32


@dataclass(slots=True)
class ProbeResult:
    """``ok`` iff the banner started with ``SSH-``; ``detail`` is the state text; ``address`` is ``host:port``."""

    ok: bool
    detail: str
    address: str


def format_address(host, port):
    """``host:port``, bracketing IPv6 literals as Go's ``net.JoinHostPort`` does."""
    return f"[{host}]:{port}" if ":" in str(host) else f"{host}:{port}"


def _os_error_text(err):
    """Go-like lowercase text of a socket error: ``connection refused``, ``i/o timeout``, ``EOF``."""
    if isinstance(err, (socket.timeout, TimeoutError)):
        return "i/o timeout"
    code = getattr(err, "errno", None)
    if isinstance(code, int) and code in errno.errorcode:
        if code == errno.ETIMEDOUT:
            return "i/o timeout"
        return os.strerror(code).lower()
    text = str(err)
    return text.lower() if text else type(err).__name__


def timeout_within(limit, deadline, clock):
    """``limit``, capped at ``deadline`` (in ``clock()`` time), never zero (a socket's non-blocking)."""
    if deadline is None:
        return max(limit, _MIN_TIMEOUT)
    return max(min(limit, deadline - clock()), _MIN_TIMEOUT)


def probe_options(deadline):
    """A probe's keywords: capped at the wait's ``deadline`` once set, so a probe never outlives the wait."""
    return {} if deadline is None else {"deadline": deadline}


def _read_exactly(sock, count):
    """Read ``count`` bytes; raise EOFError (``EOF`` or ``unexpected EOF``) if the peer closes early."""
    data = b""
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            raise EOFError("unexpected EOF" if data else "EOF")
        data += chunk
    return data


def probe(host, port, connect_timeout=DEFAULT_CONNECT_TIMEOUT, read_timeout=DEFAULT_READ_TIMEOUT, deadline=None,
          clock=time.monotonic):
    """Probe ``host:port`` once; ``deadline`` (in ``clock()`` time) caps both timeouts when sooner."""
    address = format_address(host, port)
    try:
        sock = socket.create_connection((host, int(port)), timeout=timeout_within(connect_timeout, deadline, clock))
    except socket.gaierror as err:
        reason = err.strerror or str(err)
        return ProbeResult(False, f"dial tcp: lookup {host}: {reason.lower()}", address)
    except (OSError, ValueError, OverflowError) as err:
        return ProbeResult(False, f"dial tcp {address}: connect: {_os_error_text(err)}", address)
    try:
        sock.settimeout(timeout_within(read_timeout, deadline, clock))
        try:
            banner = _read_exactly(sock, len(BANNER_PREFIX))
        except EOFError as err:
            return ProbeResult(False, f"connected to {address} but got no ssh banner: {err}", address)
        except OSError as err:
            text = f"connected to {address} but got no ssh banner: read: {_os_error_text(err)}"
            return ProbeResult(False, text, address)
    finally:
        sock.close()
    if banner != BANNER_PREFIX:
        return ProbeResult(False, f"{address} answered but is not an ssh server", address)
    return ProbeResult(True, f"ssh reachable at {address}", address)


def probe_many(targets, connect_timeout=DEFAULT_CONNECT_TIMEOUT, read_timeout=DEFAULT_READ_TIMEOUT, deadline=None,
               clock=time.monotonic):
    """``{key: ProbeResult}`` of ``{key: (host, port)}``, one thread per target (capped): as long as the slowest."""
    targets = dict(targets)
    if not targets:
        return {}
    with ThreadPoolExecutor(min(len(targets), _MAX_PROBE_THREADS), thread_name_prefix="runpod-ssh-probe") as pool:
        futures = {key: pool.submit(probe, host, port, connect_timeout, read_timeout, deadline, clock)
                   for key, (host, port) in targets.items()}
        return {key: future.result() for key, future in futures.items()}

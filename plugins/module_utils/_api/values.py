# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The checks of one option's value (pure Python) the input models are written with. A message never echoes a value
that may be a secret (a key pasted as a public key)."""

from __future__ import annotations

import math
import re
import unicodedata

NAME_MAX_LENGTH = 191  # REST v2 documents no limit; kept from the retired REST v1 document (PodCreateInput.name)
PORT_PROTOCOLS = ("http", "tcp")
MAX_GPU_COUNT = 16
MAX_STORAGE_GB = 4096  # the largest storage size the API documents (a network volume)
MIN_PERSISTENT_VOLUME_GB = 10  # REST v2 PersistentMount.size minimum
MAX_VCPU_COUNT = 512
ENV_KEY = re.compile(r"\A[A-Za-z_][A-Za-z0-9_]*\Z")
PORT_ENTRY = re.compile(r"\A(\d+)/([^/]*)\Z")
DATA_CENTER_ID = re.compile(r"\A[A-Z]{2,4}-[A-Z]{2,4}-[0-9]{1,3}\Z")


def name_problem(value, option="name"):
    """Why ``value`` cannot name a RunPod resource, or None."""
    if not value:
        return f"{option} must not be empty"
    if value != value.strip():
        return (f"{option} {value!r} has leading or trailing whitespace (a YAML | block adds a newline); names read "
                "back from RunPod carry none, so the resource could never be found by this name again. Remove it.")
    if any(unicodedata.category(character) in ("Cc", "Cf") for character in value):
        return f"{option} {value!r} contains a control character or an invisible formatting character"
    if len(value) > NAME_MAX_LENGTH:
        return f"{option} must be at most {NAME_MAX_LENGTH} characters (it has {len(value)})"
    return None


def _check_env_key(option, key):
    if not isinstance(key, str) or not ENV_KEY.match(key):
        raise ValueError(f"{option} key {key!r} is not a valid environment variable name (letters, digits and _, not "
                         "starting with a digit)")


def port_problem(entry):
    match = PORT_ENTRY.match(entry)
    if entry.isdigit():
        return f"ports entry {entry!r} needs a protocol: write it as {entry}/tcp or {entry}/http"
    if match is None:
        return f"ports entry {entry!r} must be <port>/<protocol>, such as 8888/http or 22/tcp"
    if not 1 <= int(match.group(1)) <= 65535:
        return f"ports entry {entry!r}: the port must be 1 to 65535"
    if match.group(2) not in PORT_PROTOCOLS:
        return f"ports entry {entry!r}: the protocol must be http or tcp"
    return None


def check_ports(ports):
    """``ports`` as given (entries trimmed); raises ValueError for a malformed entry or a port declared twice."""
    if ports is None:
        return None
    cleaned: list[str] = []
    seen: dict[int, str] = {}
    for entry in ports:
        entry = str(entry).strip()
        problem = port_problem(entry)
        if problem:
            raise ValueError(problem)
        number = int(entry.split("/", 1)[0])
        if number in seen:
            raise ValueError(f"port {number} is declared more than once in ports ({seen[number]}, {entry})")
        seen[number] = entry
        cleaned.append(entry)
    return cleaned


def check_env(env):
    """``env`` as str -> str; raises ValueError for a key that is not a variable name or a non-scalar value."""
    if env is None:
        return None
    if not isinstance(env, dict):
        raise ValueError(f"env must be a mapping of variable names to strings, got {type(env).__name__}")
    result = {}
    for key, value in env.items():
        _check_env_key("env", key)
        if isinstance(value, bool) or not isinstance(value, (str, int, float)) or (
                isinstance(value, float) and not math.isfinite(value)):
            raise ValueError(f"env value of {key} must be a string (or a number), got {type(value).__name__} "
                             f"{value!r}; quote it in YAML, or serialize structured data yourself (for example with "
                             "to_json)")
        result[key] = value if isinstance(value, str) else str(value)
    return result


# RunPod's secret names (CreateSecretRequest.name): the one home of the rule, for runpod.cloud.secret and secret_env.
SECRET_NAME = re.compile(r"\A[a-zA-Z_][a-zA-Z0-9_.\-/]*\Z")
SECRET_NAME_MAX_LENGTH = 191
SECRET_RESERVED_PREFIX = "RUNPOD"  # refused case-insensitively


def secret_name_problem(value, option="name"):
    """Why ``value`` cannot name a RunPod secret, or None (docs/dev/api-notes.md, section 7: secrets)."""
    if not isinstance(value, str) or not value:
        return f"{option} must be a secret name, got {value!r}"
    if len(value) > SECRET_NAME_MAX_LENGTH:
        return f"{option} must be at most {SECRET_NAME_MAX_LENGTH} characters (it has {len(value)})"
    if not SECRET_NAME.match(value):
        return (f"{option} {value!r} is not a valid secret name: it must start with a letter or _ and hold only "
                "letters, digits and _ . - /")
    if value.upper().startswith(SECRET_RESERVED_PREFIX):
        return f"{option} {value!r} starts with {SECRET_RESERVED_PREFIX}, a prefix RunPod reserves (in any case)"
    return None


def check_secret_env(secret_env):
    """``secret_env`` (env name -> secret name) when every key is a variable name and every value a secret name."""
    if secret_env is None:
        return None
    if not isinstance(secret_env, dict):
        raise ValueError(f"secret_env must be a mapping of variable names to secret names, got "
                         f"{type(secret_env).__name__}")
    for key, name in secret_env.items():
        _check_env_key("secret_env", key)
        problem = secret_name_problem(name, f"secret_env {key}")
        if problem:
            raise ValueError(problem)
    return dict(secret_env)


def check_count(option, value, low, high, unit=""):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{option} must be a whole number, got {value!r}")
    if value < low:
        raise ValueError(f"{option} must be at least {low}{unit} (got {value})")
    if value > high:
        raise ValueError(f"{option} must be at most {high}{unit} (got {value})")
    return value


def check_data_center_ids(values):
    if values is None:
        return None
    for value in values:
        if not isinstance(value, str) or not DATA_CENTER_ID.match(value):
            raise ValueError(f"data_center_ids entry {value!r} is not a RunPod data center id such as US-TX-3 or "
                             "EU-RO-1")
    return list(values)


def check_range(option, value, low, high=None, unit=""):
    """``value`` in ``low``..``high`` (no upper bound when ``high`` is None); raises ValueError otherwise."""
    if value is not None and (value < low or (high is not None and value > high)):
        bound = f"between {low} and {high}{unit}" if high is not None else f"at least {low}{unit}"
        raise ValueError(f"{option} must be {bound}, got {value}")
    return value


def check_within(value, bounds, message):
    """``value`` when it is None or within ``bounds``, else ValueError (``message`` formats low, high, value)."""
    low, high = bounds
    if value is not None and not low <= value <= high:
        raise ValueError(message.format(low=low, high=high, value=value))
    return value


def range_problems(values, table):
    """The ``check_range`` message of every ``(option, low, high)`` of ``table`` that ``values`` breaks."""
    problems = []
    for option, low, high in table:
        try:
            check_range(option, values.get(option), low, high)
        except ValueError as error:
            problems.append(str(error))
    return problems


# --- public keys: what RunPod puts in authorized_keys, never a private key ----------------------------------
# What RunPod accepts as a key line (its UpdateSshKeysRequest pattern): <type> <body>[ <comment>].
PUBLIC_KEY_LINE = re.compile(r"\A(ssh|ecdsa|sk)-[^\s]+ [^\s]+([ \t][^\n\r]*)?\Z")
# PEM and OpenSSH private keys (-----BEGIN OPENSSH PRIVATE KEY-----, RSA, EC, ENCRYPTED, ...) and PuTTY's .ppk.
PRIVATE_KEY = re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----|PuTTY-User-Key-File-\d")


def key_lines(text):
    """The key lines of ``text``: stripped, without blank and ``#`` lines."""
    return [line.strip() for line in (text or "").splitlines() if line.strip() and not line.strip().startswith("#")]


def public_key_problem(text, option):
    """Why ``text`` (one public key a line) cannot be given as ``option``, or None. The message never shows the value:
    a private key pasted here must not reach RunPod (an env any account member reads), a result or a log."""
    if not text:
        return None
    if PRIVATE_KEY.search(text):
        return (f"{option} looks like a private key, not a public key line; it was not sent and is not shown. Give the "
                "public key (such as the content of ~/.ssh/id_ed25519.pub), and treat this private key as exposed "
                "wherever the task's text was stored")
    lines = key_lines(text)
    for number, line in enumerate(lines, start=1):
        if not PUBLIC_KEY_LINE.match(line):
            where = f" (line {number})" if len(lines) > 1 else ""
            return (f"{option}{where} is not an OpenSSH public key line (expected '<type> <base64-key> [comment]', "
                    "such as the content of ~/.ssh/id_ed25519.pub); the value is not shown")
    return None


def secret_suspects(text):
    """The strings to mask in a failure result when ``text`` was refused as a public key: it and its lines."""
    if not text:
        return []
    return [text, *(line.strip() for line in text.splitlines() if len(line.strip()) >= 16)]

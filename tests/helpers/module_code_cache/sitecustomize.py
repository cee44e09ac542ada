# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Compiled-code cache for the module processes of the test suite's playbook runs (test harness only).

Ansible runs every module task as an AnsiballZ zip that Python imports with ``zipimport``, which compiles each
module_utils source again in every module process (no ``.pyc`` in the zip): about half of a module process's CPU
time (docs/dev/developing.md, "Tests"). The playbook runs of ``make test`` put this directory on ``PYTHONPATH``
and name a cache directory in ``RUNPOD_TEST_MODULE_CODE_CACHE``; Python then imports this file at start-up and
keeps each compiled source, keyed by its bytes and the interpreter's cache tag, the way a ``.pyc`` would. The code
that runs is the code compiled from the same source; only the compile is skipped. Without the variable this file
does nothing.
"""

from __future__ import annotations

import os

CACHE_ENV = "RUNPOD_TEST_MODULE_CODE_CACHE"


def _install(cache_dir: str) -> None:
    import hashlib
    import marshal
    import sys
    import types
    import zipimport

    compile_source = zipimport._compile_source  # pylint: disable=protected-access
    tag = (sys.implementation.cache_tag or "").encode()

    def renamed(code: types.CodeType, filename: str) -> types.CodeType:
        consts = tuple(renamed(const, filename) if isinstance(const, types.CodeType) else const
                       for const in code.co_consts)
        return code.replace(co_filename=filename, co_consts=consts)

    def cached_compile_source(pathname: str, source: bytes) -> types.CodeType:
        # Each module process unpacks its zip under a new temporary path: the key is the source alone, and a hit
        # takes the path of the file it stands for (tracebacks name the right file).
        path = os.path.join(cache_dir, hashlib.sha256(tag + b"\0" + source).hexdigest())
        try:
            with open(path, "rb") as handle:
                code = marshal.load(handle)
        except (OSError, EOFError, ValueError, TypeError):
            code = None
        if isinstance(code, types.CodeType):
            return code if code.co_filename == pathname else renamed(code, pathname)
        code = compile_source(pathname, source)
        partial = f"{path}.{os.getpid()}"
        try:
            with open(partial, "wb") as handle:
                marshal.dump(code, handle)
            os.replace(partial, path)  # whole or absent: parallel module processes never read half a file
        except OSError:
            pass
        return code

    zipimport._compile_source = cached_compile_source  # pylint: disable=protected-access


if os.environ.get(CACHE_ENV):
    _install(os.environ[CACHE_ENV])

# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The test harness's compiled-code cache for module processes (tests/helpers/module_code_cache/sitecustomize.py):
a second process importing the same source from another zip uses the cached code under its own file name, a
broken cache entry is compiled again, and without the variable nothing is cached."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile

from helpers.playbooks import MODULE_CODE_CACHE_PATH

SOURCE = b'def where():\n    import sys\n    return sys._getframe().f_code.co_filename\n\nVALUE = 6 * 7\n'
PROBE = "import sys; sys.path.insert(0, sys.argv[1]); import cached_mod; print(cached_mod.VALUE, cached_mod.where())"


def import_from_zip(tmp_path, name, cache_dir):
    archive = tmp_path / f"{name}.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("cached_mod.py", SOURCE)
    env = {**os.environ, "PYTHONPATH": str(MODULE_CODE_CACHE_PATH)}
    env.pop("RUNPOD_TEST_MODULE_CODE_CACHE", None)
    if cache_dir:
        env["RUNPOD_TEST_MODULE_CODE_CACHE"] = str(cache_dir)
    completed = subprocess.run([sys.executable, "-c", PROBE, str(archive)], env=env, capture_output=True, text=True,
                               check=True, timeout=60)
    value, filename = completed.stdout.split()
    return int(value), filename, archive


def test_a_second_process_uses_the_cached_code_under_its_own_file_name(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    first = import_from_zip(tmp_path, "first", cache)
    entries = list(cache.iterdir())
    assert len(entries) == 1
    stamp = entries[0].stat().st_mtime_ns
    second = import_from_zip(tmp_path, "second", cache)
    assert first[0] == second[0] == 42
    # Each process names its own zip (nested code objects too): a traceback points at the file that ran.
    assert first[1] == str(first[2] / "cached_mod.py") and second[1] == str(second[2] / "cached_mod.py")
    assert [entry.stat().st_mtime_ns for entry in cache.iterdir()] == [stamp]  # read, not written again


def test_a_broken_entry_is_compiled_again_and_no_variable_caches_nothing(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    import_from_zip(tmp_path, "first", cache)
    (entry,) = cache.iterdir()
    entry.write_bytes(b"not marshal data")
    assert import_from_zip(tmp_path, "second", cache)[0] == 42
    assert entry.read_bytes() != b"not marshal data"  # replaced by a whole entry

    assert import_from_zip(tmp_path, "third", None)[0] == 42
    assert list(cache.iterdir()) == [entry]

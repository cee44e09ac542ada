# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The test harness's caches (tests/helpers/module_code_cache/sitecustomize.py).

Module processes: a second process importing the same source from another zip uses the cached code under its own
file name, a broken cache entry is compiled again, and without the variable nothing is cached. The controller:
modules are built into the same zip with the import-scan cache cold and warm as without it, the tree of only the
import statements of every source (ours, ansible's module_utils) gives Ansible the same required and optional
module_utils as the whole source's tree, and the routing table read from the cache is the one parsed from YAML."""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from helpers.paths import COLLECTIONS_ROOT, REPO_ROOT
from helpers.playbooks import MODULE_CODE_CACHE_PATH

MODULES = REPO_ROOT / "plugins" / "modules"
MODULE_UTILS = REPO_ROOT / "plugins" / "module_utils"

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


# --- the controller's caches ---------------------------------------------------------------------------------------

BUILD = """
import base64, io, json, os, sys, zipfile
from ansible.plugins.loader import init_plugin_loader, module_loader
init_plugin_loader([os.environ["ANSIBLE_COLLECTIONS_PATH"]])
from ansible import constants as C
from ansible.executor import module_common
from ansible.template import Templar
built = {}
for name in sys.argv[1:]:
    found = module_loader.find_plugin_with_context(name)
    module_common.modify_module(module_name=name, module_path=found.plugin_resolved_path, module_args={},
                                templar=Templar(loader=None), task_vars={"ansible_python_interpreter": sys.executable})
cache = os.path.join(C.DEFAULT_LOCAL_TMP, "ansiballz_cache")
for entry in sorted(os.listdir(cache)):
    if not entry.endswith(".lock"):
        cached = module_common._CachedModule.load(os.path.join(cache, entry))
        archive = zipfile.ZipFile(io.BytesIO(base64.b64decode(cached.zip_data)))
        # Every entry's name, order and bytes; the time stamps are the build's clock.
        entries = [[info.filename, info.CRC, info.file_size] for info in archive.infolist()]
        built[entry] = entries + [repr(cached.metadata)]
print(json.dumps(built))
"""


def build_modules(tmp_path, names, cache_dir):
    env = {**os.environ, "PYTHONPATH": str(MODULE_CODE_CACHE_PATH), "ANSIBLE_COLLECTIONS_PATH": str(COLLECTIONS_ROOT)}
    env.pop("RUNPOD_TEST_MODULE_CODE_CACHE", None)
    if cache_dir:
        env["RUNPOD_TEST_MODULE_CODE_CACHE"] = str(cache_dir)
    env["ANSIBLE_LOCAL_TEMP"] = str(tmp_path / f"local-{len(list(tmp_path.iterdir()))}")
    completed = subprocess.run([sys.executable, "-c", BUILD, *names], env=env, capture_output=True, text=True,
                               check=True, timeout=120)
    return json.loads(completed.stdout)


def test_modules_are_built_the_same_with_the_controller_caches_cold_and_warm(tmp_path):
    # The widest import graphs (a create with waits and placement, the job runner, a batch read) and one of
    # ansible's own; the next test holds every source's imports to the same standard.
    names = ["runpod.cloud.pod", "runpod.cloud.endpoint_job", "runpod.cloud.pod_info", "ansible.builtin.ping"]
    cache = tmp_path / "cache"
    cache.mkdir()
    plain = build_modules(tmp_path, names, None)
    assert len(plain) == len(names)
    cold = build_modules(tmp_path, names, cache)
    scans = sorted(cache.iterdir())
    assert scans, "the controller wrote no import scans"
    stamps = [entry.stat().st_mtime_ns for entry in scans]
    warm = build_modules(tmp_path, names, cache)
    assert cold == plain and warm == plain
    assert [entry.stat().st_mtime_ns for entry in sorted(cache.iterdir())] == stamps  # the warm build only read


def load_sitecustomize():
    path = MODULE_CODE_CACHE_PATH / "sitecustomize.py"
    spec = importlib.util.spec_from_file_location("runpod_test_sitecustomize", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # no variable in this process: defines its functions, installs nothing
    return module


def test_a_tree_of_the_scanned_imports_gives_ansible_the_same_required_and_optional_module_utils():
    from ansible import module_utils as ansible_module_utils
    from ansible.executor.module_common import ModuleDepFinder

    site = load_sitecustomize()
    sources = sorted(MODULE_UTILS.rglob("*.py")) + sorted(MODULES.glob("*.py"))
    sources += sorted(Path(ansible_module_utils.__file__).parent.rglob("*.py"))
    optional_seen = 0
    for path in sources:
        tree = ast.parse(path.read_bytes())
        fqn = "ansible_collections.runpod.cloud.plugins." + ".".join(path.with_suffix("").parts[-2:])
        is_package = path.name == "__init__.py"
        full = ModuleDepFinder(fqn, tree, is_package)
        scanned = ModuleDepFinder(fqn, site._tree_of(site._import_statements(tree)), is_package)
        assert (scanned.submodules, scanned.optional_imports) == (full.submodules, full.optional_imports), path
        optional_seen += bool(full.optional_imports)
    assert optional_seen, "no source with an optional import: the nested case is untested"


def test_the_routing_table_is_the_same_from_the_cache():
    from ansible.utils.collection_loader import _collection_meta

    site = load_sitecustomize()
    runtime = Path(_collection_meta.__file__).parents[2] / "config" / "ansible_builtin_runtime.yml"
    data = runtime.read_bytes()
    with tempfile.TemporaryDirectory() as cache:
        holder = type("Holder", (), {"_meta_yml_to_dict": staticmethod(_collection_meta._meta_yml_to_dict)})
        site._patch_collection_meta(holder, cache)
        cold = holder._meta_yml_to_dict(data, ("ansible.builtin", "runtime.yml"))
        warm = holder._meta_yml_to_dict(data, ("ansible.builtin", "runtime.yml"))
        assert len(os.listdir(cache)) == 1
    assert cold == warm == _collection_meta._meta_yml_to_dict(data, None)
    assert warm["plugin_routing"]["modules"]  # the real table, not an empty one

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

The same variable gives the controller (``ansible-playbook`` and its forked workers) two caches of work that
depends only on a file's bytes, keyed by those bytes, so a run repeats none of what an earlier run of the session
did:

* the import scan of module building: every playbook run builds each module's AnsiballZ zip once, and to find the
  module_utils a module needs Ansible parses each candidate source into a syntax tree only to read its import
  statements (about 0.3 CPU-s per module per run). The cache keeps those statements; a hit hands Ansible a tree of
  only them, nested ones below a conditional so that what was optional stays optional. The zip built is the same
  entry for entry (tests/unit/test_module_code_cache.py builds modules both ways);
* the routing table of ``ansible.builtin`` (``meta/runtime.yml``), parsed from YAML at every controller start
  (about 0.25 CPU-s): ``ansible.utils.collection_loader._collection_meta._meta_yml_to_dict`` is documented as a
  function other tools replace to cache its result, which is what this does.
"""

from __future__ import annotations

import os

CACHE_ENV = "RUNPOD_TEST_MODULE_CODE_CACHE"


def _install(cache_dir: str) -> None:
    import types
    import zipimport

    compile_source = zipimport._compile_source  # pylint: disable=protected-access

    def renamed(code: types.CodeType, filename: str) -> types.CodeType:
        consts = tuple(renamed(const, filename) if isinstance(const, types.CodeType) else const
                       for const in code.co_consts)
        return code.replace(co_filename=filename, co_consts=consts)

    def cached_compile_source(pathname: str, source: bytes) -> types.CodeType:
        # Each module process unpacks its zip under a new temporary path: the key is the source alone, and a hit
        # takes the path of the file it stands for (tracebacks name the right file).
        code = _cached(_cache_path(cache_dir, b"code", source), lambda: compile_source(pathname, source),
                       lambda value: isinstance(value, types.CodeType))
        return code if code.co_filename == pathname else renamed(code, pathname)

    zipimport._compile_source = cached_compile_source  # pylint: disable=protected-access


def _cache_path(cache_dir: str, kind: bytes, data: bytes) -> str:
    import hashlib
    import sys

    tag = (sys.implementation.cache_tag or "").encode()
    return os.path.join(cache_dir, hashlib.sha256(kind + b"\0" + tag + b"\0" + data).hexdigest())


def _cached(path: str, build, check):
    """The marshalled value at ``path`` when ``check`` accepts it, else ``build()`` stored there whole."""
    import marshal

    try:
        with open(path, "rb") as handle:
            value = marshal.load(handle)
        if check(value):
            return value
    except (OSError, EOFError, ValueError, TypeError):
        pass
    value = build()
    partial = f"{path}.{os.getpid()}"
    try:
        with open(partial, "wb") as handle:
            marshal.dump(value, handle)
        os.replace(partial, path)  # whole or absent: parallel processes never read half a file
    except (OSError, ValueError):
        pass
    return value


def _as_bytes(source) -> bytes:
    return bytes(source) if isinstance(source, (bytes, bytearray)) else str(source).encode("utf-8", "surrogatepass")


def _import_statements(tree) -> tuple:
    """``(top_level, module, level, ((name, asname), ...), is_from)`` for every import statement in ``tree``
    (``module`` is None for a plain ``import`` and for ``from . import x``)."""
    import ast

    top = {id(node) for node in tree.body}
    return tuple(
        (id(node) in top, node.module if isinstance(node, ast.ImportFrom) else None,
         getattr(node, "level", 0) or 0, tuple((alias.name, alias.asname) for alias in node.names),
         isinstance(node, ast.ImportFrom))
        for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
    )


def _tree_of(statements: tuple):
    """A module of only ``statements``: the top-level ones at the top, the others inside an ``if`` (Ansible counts
    an import whose parent is not the module as optional)."""
    import ast

    top, nested = [], []
    for top_level, module, level, names, is_from in statements:
        aliases = [ast.alias(name=name, asname=asname) for name, asname in names]
        node = ast.ImportFrom(module=module, names=aliases, level=level) if is_from else ast.Import(names=aliases)
        (top if top_level else nested).append(node)
    if nested:
        top.append(ast.If(test=ast.Constant(value=True), body=nested, orelse=[]))
    return ast.Module(body=top, type_ignores=[])


def _patch_module_common(module, cache_dir: str) -> None:
    compile_module_ast = getattr(module, "_compile_module_ast", None)
    if compile_module_ast is None:  # another ansible-core: build as it does
        return

    def cached_compile_module_ast(module_name, source_code):
        data = _as_bytes(source_code)
        if b"METADATA" in data:  # Ansible reads a module's METADATA assignment from the tree: keep it whole
            return compile_module_ast(module_name, source_code)
        trees = []

        def scan():
            trees.append(compile_module_ast(module_name, source_code))
            return _import_statements(trees[0])

        statements = _cached(_cache_path(cache_dir, b"import-scan", data), scan, lambda value: isinstance(value, tuple))
        return trees[0] if trees else _tree_of(statements)

    module._compile_module_ast = cached_compile_module_ast  # pylint: disable=protected-access


def _patch_collection_meta(module, cache_dir: str) -> None:
    meta_yml_to_dict = getattr(module, "_meta_yml_to_dict", None)
    if meta_yml_to_dict is None:
        return

    def cached_meta_yml_to_dict(yaml_string_data, content_id):
        path = _cache_path(cache_dir, b"runtime-yml", _as_bytes(yaml_string_data))
        return _cached(path, lambda: meta_yml_to_dict(yaml_string_data, content_id),
                       lambda value: isinstance(value, dict))

    module._meta_yml_to_dict = cached_meta_yml_to_dict  # pylint: disable=protected-access


def _patch_after_import(patches: dict) -> None:
    """Run ``patches[name](module)`` right after ``name`` is first imported (before anything binds its names)."""
    import importlib.abc
    import importlib.machinery
    import sys

    class PatchAfterImport(importlib.abc.MetaPathFinder):
        def find_spec(self, fullname, path, target=None):
            patch = patches.get(fullname)
            if patch is None:
                return None
            spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
            if spec is None or not hasattr(spec.loader, "exec_module"):
                return spec
            exec_module = spec.loader.exec_module

            def exec_and_patch(module):
                exec_module(module)
                patch(module)

            spec.loader.exec_module = exec_and_patch
            return spec

    sys.meta_path.insert(0, PatchAfterImport())


if os.environ.get(CACHE_ENV):
    _install(os.environ[CACHE_ENV])
    _patch_after_import({
        "ansible.executor.module_common": lambda module: _patch_module_common(module, os.environ[CACHE_ENV]),
        "ansible.utils.collection_loader._collection_meta":
            lambda module: _patch_collection_meta(module, os.environ[CACHE_ENV]),
    })

"""Composition over inheritance in plugins/module_utils (docs/dev/architecture.md, "Composition"), checked on the
real classes.

* Every poller subclasses the engine's ``Poller`` (the interface) directly: what pollers share is an object they hold
  (a ``MissCounter``) or a function they call (``counted_read``, ``probe_options``), never a base class between.
* No mixins: no class has two bases, and no class declares an attribute (an annotation without a value) that its own
  code never sets, the mark of a class that borrows its host's attributes. Classes whose annotations are their own
  declared fields (dataclasses, ``Record``s and pydantic models, named tuples, ``Protocol``s) are what they say.

The ``test_a_*_is_reported`` tests feed the checks a class that breaks each rule, so a check that always passed would
fail there.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import re
from pathlib import Path
from typing import Any

import pytest

from ansible_collections.runpod.cloud.plugins.module_utils._engine.pod_pollers import PodPoller
from ansible_collections.runpod.cloud.plugins.module_utils._engine.poll import Poller

ROOT = Path(__file__).resolve().parents[2]
MODULE_UTILS = ROOT / "plugins" / "module_utils"
PACKAGE = "ansible_collections.runpod.cloud.plugins.module_utils"


def classes() -> dict[str, type]:
    """``{"_layer.file.Class": class}`` for every class a module_utils file defines at its top level."""
    found = {}
    for path in sorted(MODULE_UTILS.glob("*/*.py")):
        if path.name == "__init__.py":
            continue
        module = importlib.import_module(f"{PACKAGE}.{path.parent.name}.{path.stem}")
        for value in vars(module).values():
            if inspect.isclass(value) and value.__module__ == module.__name__:
                found[f"{path.parent.name}.{path.stem}.{value.__qualname__}"] = value
    return found


def too_deep(found: dict[str, type]) -> dict[str, list[str]]:
    """Every poller whose bases are not exactly ``Poller``, with its bases."""
    return {
        name: [base.__name__ for base in cls.__bases__]
        for name, cls in found.items()
        if issubclass(cls, Poller) and cls is not Poller and cls.__bases__ != (Poller,)
    }


def mixed(found: dict[str, type]) -> dict[str, list[str]]:
    """Every class with more than one base, with its bases."""
    return {name: [base.__name__ for base in cls.__bases__] for name, cls in found.items() if len(cls.__bases__) > 1}


def declares_fields(cls: type) -> bool:
    """Whether ``cls``'s annotations are its own declared fields (the class or its machinery sets them)."""
    return (
        dataclasses.is_dataclass(cls)
        or hasattr(cls, "model_fields")  # Record (_vocab/record.py) and pydantic models
        or (issubclass(cls, tuple) and hasattr(cls, "_fields"))
        or bool(getattr(cls, "_is_protocol", False))
    )


def host_attributes(cls: type) -> list[str]:
    """The attributes ``cls`` declares (annotation, no value) and its own code never sets (``self.name = ...``)."""
    declared = [name for name in inspect.get_annotations(cls) if name not in vars(cls)]
    if not declared or declares_fields(cls):
        return []
    source = inspect.getsource(cls)
    return [name for name in declared if not re.search(rf"\bself\.{re.escape(name)}\s*(:[^=\n]*)?=(?!=)", source)]


def borrowing(found: dict[str, type]) -> dict[str, list[str]]:
    return {name: attributes for name, cls in found.items() if (attributes := host_attributes(cls))}


def test_every_poller_is_one_level_under_the_interface():
    assert too_deep(classes()) == {}


def test_no_class_has_two_bases():
    assert mixed(classes()) == {}


def test_no_class_declares_attributes_it_never_sets():
    assert borrowing(classes()) == {}


class _Deep(PodPoller):
    pass


class _Probing(Poller):
    pass


class _Mixed(_Probing, PodPoller):
    pass


class _Mixin:
    """Declares what its host sets."""

    find_by_name: Any
    fail: Any
    kind: str

    def adopt(self, name):
        return self.find_by_name(name) or self.fail(self.kind)


class _Own:
    """Declares what it sets itself (a plain class, not a mixin)."""

    result: dict
    name: str | None

    def __init__(self):
        self.result = {}
        self.name: str | None = None


@dataclasses.dataclass
class _Fields:
    code: str


def test_a_poller_two_levels_deep_is_reported():
    found = {"_engine.x._Deep": _Deep, "_engine.x._Mixed": _Mixed, "_engine.x._Probing": _Probing}
    assert too_deep(found) == {"_engine.x._Deep": ["PodPoller"], "_engine.x._Mixed": ["_Probing", "PodPoller"]}


def test_a_class_with_two_bases_is_reported():
    assert mixed({"_engine.x._Mixed": _Mixed, "_engine.x._Deep": _Deep}) == {
        "_engine.x._Mixed": ["_Probing", "PodPoller"]}


@pytest.mark.parametrize(("cls", "expected"), [(_Mixin, ["find_by_name", "fail", "kind"]), (_Own, []), (_Fields, [])])
def test_a_class_that_declares_its_hosts_attributes_is_reported(cls, expected):
    assert host_attributes(cls) == expected

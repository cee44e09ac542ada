# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""``Record``: the base of the views and specs, in plain Python (their values come converted or checked), with
pydantic's method names; keeping pydantic out keeps it out of every task (docs/dev/architecture.md, "Import cost")."""

from __future__ import annotations

import re
import sys
from typing import TYPE_CHECKING, Any

_MISSING: Any = object()
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class FieldInfo:
    """A declared field's default (``default`` or ``default_factory``) and whether ``repr`` shows it."""

    __slots__ = ("default", "default_factory", "repr")

    def __init__(self, default: Any = _MISSING, default_factory: Any = None, repr: bool = True) -> None:
        self.default, self.default_factory, self.repr = default, default_factory, repr

    @property
    def required(self) -> bool:
        return self.default is _MISSING and self.default_factory is None

    def make_default(self) -> Any:
        return self.default_factory() if self.default_factory is not None else self.default


def Field(default: Any = _MISSING, *, default_factory: Any = None, repr: bool = True) -> Any:  # noqa: N802
    return FieldInfo(default, default_factory, repr)


class Record:
    """Declared fields (class annotations, defaults as class values or ``Field``), keyword construction. Unknown
    keywords are ignored (the API may add fields); a missing required one is a ``ValueError``. A dict (or list of
    dicts) for a field annotated with another ``Record`` is built into it, so ``model_validate(r.model_dump())``
    gives ``r`` back. ``check(self)``, run after construction, enforces a subclass's rules (raise ``ValueError``)."""

    model_fields: dict[str, FieldInfo] = {}
    _nested: dict[str, type] | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fields: dict[str, FieldInfo] = {}
        for base in reversed(cls.__mro__[1:]):
            fields.update(getattr(base, "model_fields", {}))
        for name in _own_annotations(cls):
            if name.startswith("_") or name == "model_fields":
                continue
            value = cls.__dict__.get(name, _MISSING)
            fields[name] = value if isinstance(value, FieldInfo) else FieldInfo(value)
            if value is not _MISSING:
                delattr(cls, name)  # the instance holds the value; a class default would hide a missing one
        cls.model_fields = fields
        cls._nested = None

    def __init__(self, **values: Any) -> None:
        nested = type(self)._nested_types()
        for name, info in self.model_fields.items():
            if name in values:
                value = values[name]
                if name in nested:
                    value = _build(nested[name], value)
            elif info.required:
                raise ValueError(f"{type(self).__name__}: {name} is required")
            else:
                value = info.make_default()
            setattr(self, name, value)
        self.check()

    def check(self) -> None:
        """The record's own rules; none by default."""

    if TYPE_CHECKING:  # the fields of a table's records are declared by its rows, which a type checker cannot see
        def __getattr__(self, name: str) -> Any: ...

    @classmethod
    def _nested_types(cls) -> dict[str, type]:
        """Fields whose annotation names another Record, resolved once per class (annotations are strings)."""
        if cls._nested is None:
            scope = vars(sys.modules[cls.__module__])
            nested: dict[str, type] = {}
            for klass in reversed(cls.__mro__):
                for name, annotation in _own_annotations(klass).items():
                    for word in _NAME.findall(str(annotation)):
                        target = scope.get(word)
                        if isinstance(target, type) and issubclass(target, Record):
                            nested[name] = target
            cls._nested = nested
        return cls._nested

    # --- the pydantic-named API the callers use --------------------------------------------------------------
    @classmethod
    def model_validate(cls, data: dict) -> Any:
        return cls(**data)

    def model_dump(self, *, mode: str = "python", include: Any = None, exclude: Any = None) -> dict[str, Any]:
        """The fields as plain data (nested records as dicts); ``mode`` is accepted for pydantic's callers."""
        return {name: _dump(getattr(self, name)) for name in self.model_fields
                if (include is None or name in include) and (exclude is None or name not in exclude)}

    def model_copy(self, *, update: dict | None = None) -> Any:
        """A shallow copy with ``update`` applied, not checked again (as pydantic's)."""
        copy = type(self).__new__(type(self))
        copy.__dict__.update(self.__dict__)
        copy.__dict__.update(update or {})
        return copy

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self.model_fields)

    __hash__ = None  # type: ignore[assignment]  # mutable, as pydantic models are

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name, info in self.model_fields.items() if info.repr)
        return f"{type(self).__name__}({shown})"


def spec_problem(error: Exception) -> str:
    """The message of a spec's validation error, without pydantic's decoration."""
    errors = getattr(error, "errors", None)
    if not callable(errors):
        return str(error)
    return "; ".join(str(entry.get("msg", "")).removeprefix("Value error, ") for entry in errors())


def _own_annotations(klass: type) -> dict[str, Any]:
    """The annotations a class declares itself (strings: every file has ``from __future__ import annotations``).
    Not ``inspect.get_annotations``: importing ``inspect`` would cost a module process more than this whole file."""
    return klass.__dict__.get("__annotations__", {})  # noqa: RUF063


def _build(target: type, value: Any) -> Any:
    if isinstance(value, dict):
        return target(**value)
    if isinstance(value, list):
        return [target(**item) if isinstance(item, dict) else item for item in value]
    return value


def _dump(value: Any) -> Any:
    if isinstance(value, Record):
        return value.model_dump()
    if isinstance(value, list):
        return [_dump(item) for item in value]
    if isinstance(value, dict):
        return {key: _dump(item) for key, item in value.items()}
    return value

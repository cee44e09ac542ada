"""One list of secret options (``specs.SECRET_OPTIONS``): every ``no_log`` option of every module is on it, every
option on it is ``no_log`` wherever a module has it, and the log maskers of both sides hide its values."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from ansible_collections.runpod.cloud.plugins.module_utils._module import log_report, specs
from ansible_collections.runpod.cloud.plugins.plugin_utils import _wait_action

MODULES = sorted(path.stem for path in (Path(__file__).resolve().parents[3] / "plugins" / "modules").glob("*.py"))


def options(spec, prefix=""):
    """``(dotted name, entry)`` of every option of an argument spec, suboptions included."""
    for name, entry in spec.items():
        yield prefix + name, entry
        yield from options(entry.get("options") or {}, f"{prefix}{name}.")


def no_log_options(spec):
    return {name.rsplit(".", 1)[-1] for name, entry in options(spec) if entry.get("no_log")}


@pytest.mark.parametrize("module", MODULES)
def test_every_no_log_option_is_a_secret_option_and_back(module):
    spec = importlib.import_module(f"ansible_collections.runpod.cloud.plugins.modules.{module}").ARGUMENT_SPEC
    assert no_log_options(spec) <= set(specs.SECRET_OPTIONS)
    for name, entry in options(spec):
        if name.rsplit(".", 1)[-1] in specs.SECRET_OPTIONS:
            assert entry.get("no_log") is True, name


def test_the_check_sees_a_no_log_option_missing_from_the_list():
    assert no_log_options({"token": {"type": "str", "no_log": True}}) - set(specs.SECRET_OPTIONS) == {"token"}
    with pytest.raises(ValueError, match="token is not in SECRET_OPTIONS"):
        specs.secret("token", type="str")


def test_both_log_maskers_hide_every_secret_option():
    values = {name: f"{name}-secret-value" for name in specs.SECRET_OPTIONS}

    class Owner:
        params = values
        no_log_values = ()

    assert set(values.values()) <= set(log_report.task_secrets(Owner()))
    assert set(values.values()) <= set(_wait_action.task_secrets(values))

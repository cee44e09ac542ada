"""One list of secret options (``specs.SECRET_OPTIONS``): every ``no_log`` option of every module is on it, every
option on it is ``no_log`` wherever a module has it, and the log maskers of both sides hide its values. One helper
(``base.hide_secrets``) registers the secrets a task gets or makes: with ansible-core 2.22's masker, else in
``no_log_values``."""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path
from types import SimpleNamespace

import pytest

from ansible_collections.runpod.cloud.plugins.module_utils._module import base, log_report, specs
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


CORE_SECRETS = "ansible.module_utils.secrets"  # ansible-core 2.22 and later


def test_hide_secrets_registers_with_the_core_masker_on_2_22():
    registered = []
    core = {CORE_SECRETS: SimpleNamespace(register_secrets=registered.extend)}
    module = SimpleNamespace(no_log_values=set())
    base.hide_secrets(["rpa_KEY_0123", None, "", 42], module, import_module=core.__getitem__)
    assert registered == ["rpa_KEY_0123", "42"]
    assert module.no_log_values == {"rpa_KEY_0123", "42"}  # the log maskers read them on every core
    base.hide_secrets(["rpa_CONTROLLER"], import_module=core.__getitem__)  # on the controller: no module
    assert registered[-1] == "rpa_CONTROLLER"


def test_hide_secrets_falls_back_to_no_log_values_before_2_22():
    def before_2_22(name):
        raise ModuleNotFoundError(f"No module named {name!r}")

    module = SimpleNamespace(no_log_values=set())
    base.hide_secrets(["rpa_KEY_0123"], module, import_module=before_2_22)
    assert module.no_log_values == {"rpa_KEY_0123"}  # what exit_json and fail_json hide before 2.22
    base.hide_secrets(["rpa_CONTROLLER"], import_module=before_2_22)  # the controller has nothing to do


def test_hide_secrets_uses_the_running_cores_masker():
    secret = "rpa_UNIT_MASKED_5f0c2b9e7d41"
    module = SimpleNamespace(no_log_values=set())
    base.hide_secrets([secret], module)
    assert module.no_log_values == {secret}
    if importlib.util.find_spec(CORE_SECRETS) is not None:
        from ansible.module_utils.secrets import mask_secrets  # ansible-core 2.22 and later

        assert mask_secrets(f"key={secret}.") == "key=$REDACTED$."

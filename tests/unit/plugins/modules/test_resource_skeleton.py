# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The ResourceModule skeleton of _base, on a toy resource: what every resource module gets for free.

The toy module is also the smallest example of the hooks docs/dev/architecture.md describes.
"""

from __future__ import annotations

import json

import pytest
from ansible.module_utils.basic import AnsibleModule
from ansible.module_utils.testing import patch_module_args
from pydantic import BaseModel

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._api.inputs import _Input
from ansible_collections.runpod.cloud.plugins.module_utils._module import base as _base
from ansible_collections.runpod.cloud.plugins.module_utils._module.base import run_module
from ansible_collections.runpod.cloud.plugins.module_utils._module.resource import ResourceModule
from ansible_collections.runpod.cloud.plugins.module_utils._module.specs import AUTH_ARGUMENT_SPEC, argument_spec
from ansible_collections.runpod.cloud.plugins.module_utils._module.waiter import Waiter

API_KEY = "unit-test-skeleton-secret-key"


class ThingView(BaseModel):
    id: str
    name: str = ""
    size: int | None = None


class ThingSpec(BaseModel):
    name: str
    size: int


class Backend:
    def __init__(self, *things, fail=None):
        self.things = {thing.id: thing for thing in things}
        self.fail = dict(fail or {})
        self.calls = []

    def _call(self, name, *args):
        self.calls.append((name, *args))
        if name in self.fail:
            raise self.fail[name]

    def mutations(self):
        return [call for call in self.calls if call[0] in ("create", "update", "delete")]


class ThingWaiter(Waiter):
    """A toy wait, composed by the toy module (``waiter_class``) as the real modules compose theirs."""

    kind = module = result_key = "thing"

    def wait_for(self, resource):
        self.host.backend._call("wait", resource.id)


class ThingModule(ResourceModule):
    resource_kind = "thing"
    waiter_class = ThingWaiter

    def read(self, resource_id):
        self.backend._call("read", resource_id)
        if resource_id not in self.backend.things:
            raise RunPodError("not_found", 404, "thing not found")
        return self.backend.things[resource_id]

    def find_by_name(self, name):
        self.backend._call("find", name)
        return [thing for thing in self.backend.things.values() if thing.name == name]

    def describe(self, resource):
        return None if resource is None else {"id": getattr(resource, "id", None), "name": resource.name,
                                              "size": resource.size}

    def build_spec(self):
        return ThingSpec(name=self.params["name"], size=self.params["size"])

    def create(self, spec):
        self.backend._call("create", spec.name)
        thing = ThingView(id="t-new", name=spec.name, size=spec.size)
        self.backend.things[thing.id] = thing
        return thing

    def changes(self, current):
        size = self.params["size"]
        return {"size": size} if size is not None and size != current.size else {}

    def update(self, current, changes):
        self.backend._call("update", current.id, changes)
        return current.model_copy(update=changes)

    def delete(self, current):
        self.backend._call("delete", current.id)
        self.backend.things.pop(current.id, None)

    def should_wait(self):
        return bool(self.params["follow"])  # a toy "wait"; real waits use WAIT_ARGUMENT_SPEC


class PickyThingInput(_Input):
    """What a thing's create needs (``create_needs``): a size, and a color or a pattern."""

    create_needs = ("name", "size", ("color", "pattern"))
    create_hint = "; see the thing docs"


class PickyThingModule(ThingModule):
    """A thing whose create needs a size and a color or a pattern (its input model's ``create_needs``)."""

    input_model = PickyThingInput


def run(backend, capsys, monkeypatch, check_mode=False, diff=False, module_class=ThingModule, **args):
    monkeypatch.setattr(_base, "make_backend", lambda options, **kwargs: backend)
    args = dict(args, api_key=API_KEY)
    if check_mode:
        args["_ansible_check_mode"] = True
    if diff:
        args["_ansible_diff"] = True
    spec = argument_spec(
        AUTH_ARGUMENT_SPEC,
        id=dict(type="str"),
        name=dict(type="str"),
        state=dict(type="str", choices=["present", "absent"], default="present"),
        size=dict(type="int"),
        color=dict(type="str"),
        pattern=dict(type="str"),
        follow=dict(type="bool", default=False),
    )
    with patch_module_args(args), pytest.raises(SystemExit):
        run_module(module_class, AnsibleModule(argument_spec=spec, supports_check_mode=True))
    out = capsys.readouterr().out
    assert API_KEY not in out
    return json.loads(out)


def test_several_live_things_with_one_name_fail_as_ambiguous_with_sorted_ids(capsys, monkeypatch):
    backend = Backend(ThingView(id="t-2", name="x"), ThingView(id="t-1", name="x"))
    result = run(backend, capsys, monkeypatch, name="x", size=3, state="absent")
    assert result["failed"] is True and result["code"] == "ambiguous" and result["changed"] is False
    assert result["ids"] == ["t-1", "t-2"]
    assert result["msg"].startswith("found 2 things named 'x' (ids: t-1, t-2); this module needs names to be unique")
    assert backend.mutations() == []


@pytest.mark.parametrize("check_mode", [False, True])
@pytest.mark.parametrize(
    "args, needs",
    [
        ({"name": "x"}, "size and color or pattern"),
        ({"name": "x", "size": 3}, "color or pattern"),
        ({"name": "", "size": 3, "pattern": "dots"}, "name"),
    ],
)
def test_a_create_that_misses_options_names_them_all_in_one_message(capsys, monkeypatch, check_mode, args, needs):
    backend = Backend()
    result = run(backend, capsys, monkeypatch, check_mode=check_mode, module_class=PickyThingModule, **args)
    assert result["failed"] is True and result["code"] == "bad_request" and result["changed"] is False
    expected = f"no thing named {args['name']!r} exists, and creating one needs {needs}; see the thing docs"
    assert result["msg"] == expected
    assert backend.mutations() == []


def test_one_of_the_alternatives_is_enough_for_a_create(capsys, monkeypatch):
    backend = Backend()
    result = run(backend, capsys, monkeypatch, module_class=PickyThingModule, name="x", size=3, pattern="dots")
    assert result["changed"] is True and result["thing"]["id"] == "t-new"
    assert backend.mutations() == [("create", "x")]


def test_check_mode_create_plans_with_an_empty_before_and_calls_nothing(capsys, monkeypatch):
    backend = Backend()
    result = run(backend, capsys, monkeypatch, check_mode=True, diff=True, name="x", size=3)
    assert result["changed"] is True and backend.mutations() == []
    assert result["diff"] == {"before": {}, "after": {"id": None, "name": "x", "size": 3}}
    assert result["thing"] == {"id": None, "name": "x", "size": 3}


def test_an_unknown_id_never_creates(capsys, monkeypatch):
    backend = Backend()
    result = run(backend, capsys, monkeypatch, id="t-9", name="x", size=3)
    assert result["failed"] is True and result["code"] == "not_found" and result["id"] == "t-9"
    assert "an id never creates a thing" in result["msg"] and backend.mutations() == []


def test_a_spec_rule_fails_as_bad_request_before_any_create(capsys, monkeypatch):
    backend = Backend()
    result = run(backend, capsys, monkeypatch, name="x")
    assert result["failed"] is True and result["code"] == "bad_request" and result["changed"] is False
    assert result["msg"].startswith("no thing named 'x' exists, and ")
    assert backend.mutations() == []


def test_an_update_diffs_only_the_changed_fields_and_a_failed_update_changed_nothing(capsys, monkeypatch):
    backend = Backend(ThingView(id="t-1", name="x", size=1))
    result = run(backend, capsys, monkeypatch, diff=True, name="x", size=2)
    assert result["changed"] is True and result["diff"] == {"before": {"size": 1}, "after": {"size": 2}}
    assert result["thing"]["size"] == 2
    backend = Backend(ThingView(id="t-1", name="x", size=1), fail={"update": RunPodError("conflict", 409, "busy")})
    failed = run(backend, capsys, monkeypatch, name="x", size=2)
    assert failed["failed"] is True and failed["changed"] is False and failed["code"] == "conflict"
    assert failed["msg"] == "updating thing t-1 ('x') failed: busy (conflict)" and failed["id"] == "t-1"


def test_absent_deletes_once_tolerates_a_404_and_is_idempotent(capsys, monkeypatch):
    backend = Backend(ThingView(id="t-1", name="x"), fail={"delete": RunPodError("not_found", 404, "gone")})
    result = run(backend, capsys, monkeypatch, diff=True, name="x", state="absent")
    assert result["changed"] is True and result["diff"]["after"] == {} and result["thing"]["id"] == "t-1"
    backend = Backend()
    again = run(backend, capsys, monkeypatch, name="x", state="absent")
    assert again["changed"] is False and again["thing"] is None and backend.mutations() == []


def test_an_api_error_after_a_create_names_the_created_thing(capsys, monkeypatch):
    backend = Backend(fail={"wait": RunPodError("server_error", 502, "bad gateway")})
    result = run(backend, capsys, monkeypatch, name="x", size=3, follow=True)
    assert result["failed"] is True and result["changed"] is True and result["id"] == "t-new"
    assert result["code"] == "server_error" and "thing t-new" in result["msg"]
    assert "runpod.cloud.thing id=t-new state=absent" in result["msg"]


class ThingInfoModule(_base.RunPodModule):
    result_key = "things"
    resource_kind = "thing"

    def run(self):
        module = ThingModule.__new__(ThingModule)  # borrow the toy's read/find hooks on this module's backend
        module._backend = self.backend
        things = self.select(module.read, module.find_by_name, lambda: list(self.backend.things.values()))
        self.exit(things=[thing.id for thing in things])


def run_info(backend, capsys, monkeypatch, **args):
    monkeypatch.setattr(_base, "make_backend", lambda options, **kwargs: backend)
    spec = argument_spec(AUTH_ARGUMENT_SPEC, id=dict(type="str"), name=dict(type="str"))
    with patch_module_args(dict(args, api_key=API_KEY)), pytest.raises(SystemExit):
        run_module(ThingInfoModule, AnsibleModule(argument_spec=spec, supports_check_mode=True))
    return json.loads(capsys.readouterr().out)


def test_info_select_by_id_name_or_all_and_one_failure_message(capsys, monkeypatch):
    backend = Backend(ThingView(id="t-1", name="x"), ThingView(id="t-2", name="y"))
    assert run_info(backend, capsys, monkeypatch, id="t-2")["things"] == ["t-2"]
    assert run_info(backend, capsys, monkeypatch, id="t-9")["things"] == []  # an unknown id is no error
    assert run_info(backend, capsys, monkeypatch, name="x")["things"] == ["t-1"]
    assert run_info(backend, capsys, monkeypatch)["things"] == ["t-1", "t-2"]
    backend.fail["find"] = RunPodError("forbidden", 403, "access denied")
    failed = run_info(backend, capsys, monkeypatch, name="x")
    assert failed["failed"] is True and failed["code"] == "forbidden"
    assert failed["msg"] == "reading things failed: access denied (forbidden)"

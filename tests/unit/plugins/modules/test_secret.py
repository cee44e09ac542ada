"""Account secrets: ``backend.secrets`` over ``httpx.MockTransport``, the name rule (hypothesis), and the secret
module (a value in no result, diff or message; ``update_value``; adoption on 409; which half of a failed update was
applied), and ``secret_env`` on pods (placeholders merged into env; a missing secret refused before any create)."""

from __future__ import annotations

import json
import random
import re

import httpx
import pytest
from helpers.fakes import FakeBackend, FakeClock, full_backend, run_module
from hypothesis import given
from hypothesis import strategies as st

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._api.values import SECRET_NAME, secret_name_problem
from ansible_collections.runpod.cloud.plugins.module_utils._rules.common import secret_placeholder, with_secret_env
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.account_fields import SecretSpec
from ansible_collections.runpod.cloud.plugins.modules import pod as pod_module
from ansible_collections.runpod.cloud.plugins.modules import secret as secret_module
from ansible_collections.runpod.cloud.plugins.modules import secret_info as secret_info_module

API = "https://rest.example.test/v2"
VALUE = "hf_S3CR3T-value-never-shown"
NEW_VALUE = "hf_R0TATED-value-never-shown"
POD = {"name": "web", "image": "runpod/base:1.0", "gpu_type_ids": ["NVIDIA GeForce RTX 4090"]}


def problem(status, detail):
    body = {"title": "Error", "status": status, "detail": detail}
    return httpx.Response(status, content=json.dumps(body), headers={"Content-Type": "application/problem+json"})


class SecretsApi:
    """RunPod's ``/v2/account/secrets`` in memory: names unique without regard to case (409), values kept but never
    answered, a PATCH applied value first. ``late`` names exist but the first list read misses them (created by
    another task just after it); ``fail_patch[field]`` answers the next PATCH carrying that field with that status."""

    def __init__(self, *names, late=()):
        self.secrets, self.requests, self.fail_patch = {}, [], {}
        self.clock = 0
        for name in names:
            self.add(name, "old-value")
        self.late = {self.add(name, "old-value")["id"] for name in late}

    def add(self, name, value, description=None):
        self.clock += 1
        stamp = f"2026-12-01T00:00:{self.clock:02d}Z"
        secret = {"id": f"s{len(self.secrets) + 1}", "name": name, "description": description, "value": value,
                  "createdAt": stamp, "valueLastUpdatedAt": stamp}
        self.secrets[secret["id"]] = secret
        return secret

    @staticmethod
    def answer(secret):
        return {key: value for key, value in secret.items() if key != "value"}

    def by_name(self, name):
        return [s for s in self.secrets.values() if s["name"].casefold() == name.casefold()]

    def __call__(self, request):
        body = json.loads(request.content) if request.content else None
        self.requests.append((request.method, request.url.path, dict(request.url.params), body))
        path = request.url.path.removeprefix("/v2/account/secrets")
        if request.method == "GET" and path == "":
            name = request.url.params.get("name")
            found = [s for s in self.secrets.values() if s["id"] not in self.late]
            self.late = set()
            if name is not None:
                found = [s for s in found if s["name"].casefold() == name.casefold()]
            return httpx.Response(200, json={"secrets": [self.answer(s) for s in found]})
        if request.method == "POST":
            if self.by_name(body["name"]):
                return problem(409, f"a secret named {body['name']!r} already exists")
            return httpx.Response(201, json=self.answer(self.add(body["name"], body["value"], body.get("description"))))
        secret = self.secrets.get(path.strip("/"))
        if secret is None:
            return problem(404, "secret not found")
        if request.method == "GET":
            return httpx.Response(200, json=self.answer(secret))
        if request.method == "DELETE":
            del self.secrets[secret["id"]]
            return httpx.Response(204)
        for field in ("value", "description"):
            if field in body:
                status = self.fail_patch.pop(field, None)
                if status:
                    return problem(status, f"the secret's {field} could not be updated")
                secret[field] = body[field]
                if field == "value":
                    self.clock += 1
                    secret["valueLastUpdatedAt"] = f"2026-12-01T00:00:{self.clock:02d}Z"
        return httpx.Response(200, json=self.answer(secret))

    def sent(self, method):
        return [entry for entry in self.requests if entry[0] == method]


def backend_over(api):
    options = {"api_key": "k-test-123456", "api_url": API}
    return full_backend(options, transport=httpx.MockTransport(api), clock=FakeClock(), rng=random.Random(1))


def run(capsys, monkeypatch, api, check_mode=False, **args):
    result = run_module(secret_module, backend_over(api), capsys, monkeypatch, check_mode=check_mode, diff=True,
                        **args)
    shown = json.dumps(result)
    # Ansible masks a no_log value wherever it shows: a mask in the result is a leak it covered up.
    assert VALUE not in shown and NEW_VALUE not in shown and "********" not in shown, result
    return result


# -- the name rule ------------------------------------------------------------------------------------------------
@given(st.from_regex(r"[a-zA-Z_][a-zA-Z0-9_.\-/]{0,190}", fullmatch=True))
def test_a_name_of_the_documented_pattern_passes_unless_it_starts_with_runpod(name):
    problem_text = secret_name_problem(name)
    assert (problem_text is None) == (not name.upper().startswith("RUNPOD")), (name, problem_text)


@given(st.text(min_size=1, max_size=200))
def test_a_name_passes_only_when_it_matches_the_pattern_and_the_limits(name):
    ok = bool(SECRET_NAME.match(name)) and len(name) <= 191 and not name.upper().startswith("RUNPOD")
    assert (secret_name_problem(name) is None) == ok, name


@pytest.mark.parametrize(("name", "needle"), [
    ("", "must be a secret name"), ("9lives", "start with a letter"), ("hf token", "start with a letter"),
    ("hf\n", "start with a letter"), ("runpod_key", "RUNPOD"), ("RunPodX", "RUNPOD"), ("x" * 192, "at most 191"),
])
def test_a_bad_name_is_refused_with_its_reason(name, needle):
    assert needle in secret_name_problem(name)


def test_secret_env_becomes_placeholders_merged_into_env_once():
    params = {"env": {"MODEL": "m"}, "secret_env": {"HF_TOKEN": "hf_token"}}
    merged = with_secret_env(params)
    assert merged["env"] == {"MODEL": "m", "HF_TOKEN": "{{ RUNPOD_SECRET_hf_token }}"}
    assert merged["secret_env"] is None and with_secret_env(merged) is merged  # a fleet member merges nothing
    assert params["env"] == {"MODEL": "m"}  # the options as given stay as given
    with pytest.raises(ValueError, match="HF_TOKEN given in both env and secret_env"):
        with_secret_env({"env": {"HF_TOKEN": "x"}, "secret_env": {"HF_TOKEN": "hf_token"}})
    assert secret_placeholder("a/b.c-d") == "{{ RUNPOD_SECRET_a/b.c-d }}"


# -- the backend ---------------------------------------------------------------------------------------------------
def test_the_backend_never_reads_a_value_and_finds_names_without_regard_to_case():
    api = SecretsApi()
    secrets = backend_over(api).secrets
    created = secrets.create(SecretSpec(name="HF_token", value=VALUE, description="d"))
    assert api.sent("POST")[0][3] == {"name": "HF_token", "value": VALUE, "description": "d"}
    assert VALUE not in repr(created) and VALUE not in repr(SecretSpec(name="x", value=VALUE))
    stamp = "2026-12-01T00:00:01Z"
    assert created.model_dump() == {"id": "s1", "name": "HF_token", "description": "d", "created_at": stamp,
                                    "value_last_updated_at": stamp}
    assert [view.id for view in secrets.find("hf_TOKEN")] == ["s1"]
    assert api.requests[-1][2] == {"name": "hf_TOKEN"}
    assert secrets.names() == {"hf_token"}
    secrets.update("s1", value=NEW_VALUE)
    assert api.requests[-1][3] == {"value": NEW_VALUE}
    with pytest.raises(ValueError, match="needs a value or a description"):
        secrets.update("s1")
    secrets.delete("s1")
    assert secrets.list() == []
    with pytest.raises(RunPodError) as caught:
        secrets.get("s1")
    assert caught.value.code == "not_found"


# -- the module ----------------------------------------------------------------------------------------------------
def test_create_then_rerun_is_unchanged_and_the_value_shows_nowhere(capsys, monkeypatch):
    api = SecretsApi()
    planned = run(capsys, monkeypatch, api, check_mode=True, name="hf_token", value=VALUE, description="d")
    assert planned["changed"] is True and api.sent("POST") == []
    assert planned["diff"]["after"] == {"id": None, "name": "hf_token", "description": "d", "created_at": None,
                                        "value_last_updated_at": None, "value": "(set)"}
    created = run(capsys, monkeypatch, api, name="hf_token", value=VALUE, description="d")
    assert created["changed"] is True and created["actions"] == ["create"]
    assert created["secret"]["id"] == "s1" and "value" not in created["secret"]
    assert api.secrets["s1"]["value"] == VALUE
    again = run(capsys, monkeypatch, api, name="hf_token", value=NEW_VALUE, description="d")
    assert again["changed"] is False and api.sent("PATCH") == []
    assert api.secrets["s1"]["value"] == VALUE  # on_create: an existing value is left as it is


def test_always_rotates_and_the_diff_says_changed_never_the_value(capsys, monkeypatch):
    api = SecretsApi("hf_token")
    planned = run(capsys, monkeypatch, api, check_mode=True, name="hf_token", value=NEW_VALUE, update_value="always")
    assert planned["changed"] is True and api.sent("PATCH") == []
    assert planned["diff"] == {"before": {"value": "(stored)"}, "after": {"value": "(changed)"}}
    rotated = run(capsys, monkeypatch, api, name="hf_token", value=NEW_VALUE, update_value="always",
                  description="new")
    assert rotated["changed"] is True and rotated["updated_fields"] == ["value", "description"]
    assert [entry[3] for entry in api.sent("PATCH")] == [{"value": NEW_VALUE}, {"description": "new"}]
    assert api.secrets["s1"]["value"] == NEW_VALUE
    assert rotated["secret"]["value_last_updated_at"] != "2026-12-01T00:00:01Z"
    assert rotated["diff"]["after"] == {"value": "(changed)", "description": "new"}


def test_a_409_on_create_adopts_the_secret_and_applies_the_description(capsys, monkeypatch):
    api = SecretsApi(late=["hf_token"])  # created by another task after the lookup
    adopted = run(capsys, monkeypatch, api, name="hf_token", value=VALUE, description="mine")
    assert adopted["actions"] == ["adopt", "update"] and adopted["changed"] is True
    assert adopted["secret"]["id"] == "s1" and adopted["secret"]["description"] == "mine"
    assert api.secrets["s1"]["value"] == "old-value"  # on_create: not ours to rotate
    assert [entry[3] for entry in api.sent("PATCH")] == [{"description": "mine"}]


def test_a_409_with_nothing_to_change_adopts_without_a_change(capsys, monkeypatch):
    api = SecretsApi(late=["hf_token"])
    result = run(capsys, monkeypatch, api, name="hf_token", value=VALUE)
    assert result["changed"] is False and result["actions"] == ["adopt"] and result["secret"]["id"] == "s1"
    assert "diff" not in result  # no create diff for a create that did not happen
    assert len(api.sent("POST")) == 1 and api.sent("PATCH") == []


def test_a_failed_description_says_the_value_was_rotated(capsys, monkeypatch):
    api = SecretsApi("hf_token")
    api.fail_patch["description"] = 500
    failed = run(capsys, monkeypatch, api, name="hf_token", value=NEW_VALUE, update_value="always", description="x")
    assert failed["failed"] is True and failed["changed"] is True
    assert failed["applied"] == ["value"] and failed["not_applied"] == ["description"]
    assert "the value was rotated" in failed["msg"] and "description may not have been updated" in failed["msg"]
    assert "next boot" in failed["msg"]
    assert api.secrets["s1"]["value"] == NEW_VALUE and api.secrets["s1"]["description"] is None


def test_a_refused_value_says_nothing_was_rotated_and_the_description_not_sent(capsys, monkeypatch):
    api = SecretsApi("hf_token")
    api.fail_patch["value"] = 422
    failed = run(capsys, monkeypatch, api, name="hf_token", value=NEW_VALUE, update_value="always", description="x")
    assert failed["failed"] is True and failed["changed"] is False
    assert failed["applied"] == [] and failed["not_applied"] == ["value", "description"]
    assert "the value was not rotated" in failed["msg"] and "description was not sent" in failed["msg"]
    assert len(api.sent("PATCH")) == 1


def test_absent_deletes_and_a_create_without_a_value_is_refused(capsys, monkeypatch):
    api = SecretsApi("hf_token")
    gone = run(capsys, monkeypatch, api, name="HF_TOKEN", state="absent")
    assert gone["changed"] is True and api.secrets == {}
    refused = run(capsys, monkeypatch, api, name="other")
    assert refused["failed"] is True and refused["code"] == "bad_request" and "needs value" in refused["msg"]


def test_secret_info_lists_and_selects_never_a_value(capsys, monkeypatch):
    api = SecretsApi("a", "b")
    listed = run_module(secret_info_module, backend_over(api), capsys, monkeypatch)
    assert [entry["name"] for entry in listed["secrets"]] == ["a", "b"]
    assert all("value" not in entry and "old-value" not in json.dumps(entry) for entry in listed["secrets"])
    one = run_module(secret_info_module, backend_over(api), capsys, monkeypatch, name="B")
    assert [entry["id"] for entry in one["secrets"]] == ["s2"]


# -- secret_env ----------------------------------------------------------------------------------------------------
def pod_backend(api):
    fake = FakeBackend()
    fake.secrets = backend_over(api).secrets
    return fake


def test_a_pod_naming_a_missing_secret_is_refused_before_any_create(capsys, monkeypatch):
    fake = pod_backend(SecretsApi("hf_token"))
    result = run_module(pod_module, fake, capsys, monkeypatch, secret_env={"A": "hf_token", "B": "nope"}, **POD)
    assert result["failed"] is True and result["code"] == "bad_request" and result["changed"] is False
    assert re.search(r"does not have: nope;", result["msg"]) and "Nothing was created" in result["msg"]
    assert fake.calls == []  # not even the name lookup


def test_a_pod_with_secret_env_sends_placeholders_and_a_rerun_changes_nothing(capsys, monkeypatch):
    fake = pod_backend(SecretsApi("HF_token"))
    args = dict(POD, env={"MODEL": "m"}, secret_env={"HF_TOKEN": "hf_token"})
    created = run_module(pod_module, fake, capsys, monkeypatch, **args)
    assert created["changed"] is True
    wanted = {"MODEL": "m", "HF_TOKEN": "{{ RUNPOD_SECRET_hf_token }}"}
    (spec,) = [call[1] for call in fake.calls if call[0] == "create_pod"]
    assert spec["env"] == wanted
    again = run_module(pod_module, fake, capsys, monkeypatch, **args)
    assert again["changed"] is False and fake.count("create_pod") == 1 and fake.count("update_pod") == 0


def test_absent_needs_no_secret_read(capsys, monkeypatch):
    fake = pod_backend(SecretsApi())
    result = run_module(pod_module, fake, capsys, monkeypatch, name="web", state="absent",
                        secret_env={"A": "missing"})
    assert result.get("failed") is not True and result["changed"] is False


@pytest.mark.parametrize(("name", "args", "kind"), [
    ("template", {"name": "tpl", "image": "runpod/base:1.0"}, "template"),
    ("endpoint", {"name": "ep", "image": "runpod/base:1.0", "gpu_type_ids": ["NVIDIA GeForce RTX 4090"]},
     "endpoint"),
])
def test_templates_and_endpoints_store_the_placeholders_and_rerun_unchanged(capsys, monkeypatch, name, args, kind):
    from importlib import import_module

    module = import_module(f"ansible_collections.runpod.cloud.plugins.modules.{name}")
    fake = pod_backend(SecretsApi("hf_token"))
    args = dict(args, env={"MODEL": "m"}, secret_env={"HF_TOKEN": "hf_token"})
    created = run_module(module, fake, capsys, monkeypatch, **args)
    assert created["changed"] is True
    assert created[kind]["env"] == {"MODEL": "m", "HF_TOKEN": "{{ RUNPOD_SECRET_hf_token }}"}
    again = run_module(module, fake, capsys, monkeypatch, diff=True, **args)
    assert again["changed"] is False and "diff" not in again
    assert fake.count(f"create_{kind}") == 1 and fake.count(f"update_{kind}") == 0

# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Unit tests for the account modules: the SSH key list planner (property tests) and the refusals that must
happen before any API call, with a recording fake account."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from ansible.module_utils.testing import patch_module_args
from helpers.fakes import FakeBackend, check_fake_matches_interface
from hypothesis import given
from hypothesis import strategies as st

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._module import base as _base
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.account_fields import NetworkVolumeView, RegistryView
from ansible_collections.runpod.cloud.plugins.modules import billing_info, container_registry, network_volume, ssh_key

API_KEY = "unit-test-secret-key"

# -- ssh_key.plan ------------------------------------------------------------------------------------------------

key_types = st.sampled_from(["ssh-ed25519", "ssh-rsa", "ecdsa-sha2-nistp256"])
bodies = st.text(alphabet="ABCDEFGHabcdefgh0123456789+/", min_size=4, max_size=12)
comments = st.one_of(st.just(""), st.text(alphabet="abcxyz@.-", min_size=1, max_size=8))
key_line = st.builds(lambda t, b, c: f"{t} {b} {c}".strip(), key_types, bodies, comments)
key_lists = st.lists(key_line, max_size=6, unique_by=ssh_key.identity)


def identities(lines):
    return [ssh_key.identity(line) for line in lines]


@given(
    current=key_lists,
    wanted=st.lists(key_line, max_size=6),
    state=st.sampled_from(["present", "absent"]),
    exclusive=st.booleans(),
)
def test_plan_is_idempotent_and_does_what_the_state_says(current, wanted, state, exclusive):
    exclusive = exclusive and state == "present"
    new, added, removed = ssh_key.plan(current, wanted, state, exclusive)
    # A second run with the same input changes nothing.
    assert ssh_key.plan(new, wanted, state, exclusive) == (new, [], [])
    assert len(set(identities(new))) == len(new)
    if state == "absent":
        assert not set(identities(new)) & set(identities(wanted))
        assert added == []
    elif exclusive:
        assert set(identities(new)) == set(identities(wanted))
    else:
        assert set(identities(new)) == set(identities(current)) | set(identities(wanted))
    # Keys already registered keep their registered line (comment included).
    assert [line for line in new if line in current] == [
        line for line in current if ssh_key.identity(line) in set(identities(new))
    ]
    assert set(removed) == {line for line in current if ssh_key.identity(line) not in set(identities(new))}


@given(current=key_lists, comment=st.text(alphabet="xyz", min_size=1, max_size=5))
def test_a_key_with_another_comment_is_already_present(current, comment):
    for line in current:
        kind, body = ssh_key.identity(line)
        assert ssh_key.plan(current, [f"{kind} {body} {comment}"], "present", False) == (current, [], [])


def test_key_lines_skip_blanks_and_comments():
    text = "\n  # team keys\nssh-ed25519 AAAA a@b  \n\n ssh-rsa BBBB\n"
    assert ssh_key.key_lines(text) == ["ssh-ed25519 AAAA a@b", "ssh-rsa BBBB"]


# -- modules, driven with a recording fake account --------------------------------------------------------------


class FakeAccount:
    """A fake ``backend.account``: volumes, registries and keys in memory, every call recorded; ``billing`` is the
    real one over a FakeBackend's client (no HTTP client: a call that would send a request fails the test)."""

    def __init__(self, volumes=(), keys=()):
        self.real = FakeBackend().account
        self.volumes = {volume.id: volume for volume in volumes}
        self.keys = list(keys)
        self.calls = []
        self.registries = []
        self.create_error = None

    def find_network_volumes(self, name, attempts=None):
        self.calls.append(("find_network_volumes", name))
        return [volume for volume in self.volumes.values() if volume.name == name]

    def get_network_volume(self, resource_id, attempts=None):
        self.calls.append(("get_network_volume", resource_id))
        if resource_id not in self.volumes:
            raise RunPodError("not_found", 404, "network volume not found")
        return self.volumes[resource_id]

    def update_network_volume(self, volume_id, changes):
        self.calls.append(("update_network_volume", volume_id, dict(changes)))
        self.volumes[volume_id] = self.volumes[volume_id].model_copy(update=changes)
        return self.volumes[volume_id]

    def find_registries(self, name, attempts=None):
        self.calls.append(("find_registries", name))
        return [registry for registry in self.registries if registry.name == name]

    def delete_registry(self, resource_id):
        self.calls.append(("delete_registry", resource_id))
        self.registries = [registry for registry in self.registries if registry.id != resource_id]

    def create_registry(self, name, username, password):
        self.calls.append(("create_registry", name))
        if self.create_error is not None:
            raise self.create_error
        return RegistryView(id="reg-new", name=name)

    def create_network_volume(self, spec):
        self.calls.append(("create_network_volume", spec.name))
        raise self.create_error

    def billing(self, kind, **query):
        # The real argument checks; the fake backend has no HTTP client, so a request would fail the test.
        self.calls.append(("billing", kind))
        return self.real.billing(kind, **query)


class FakeSshKeys:
    """A fake ``backend.sshkeys`` over a ``FakeAccount``'s keys, its calls recorded with the account's."""

    def __init__(self, account):
        self.account = account

    def list(self):
        self.account.calls.append(("get_ssh_keys",))
        return list(self.account.keys)

    def replace(self, keys):
        self.account.calls.append(("set_ssh_keys", list(keys)))
        self.account.keys = list(keys)
        return list(keys)


def run(module, monkeypatch, capsys, fake, args, check_mode=False):
    monkeypatch.setattr(_base.RunPodModule, "account", property(lambda self: fake))
    # The account's SSH keys are a resource object of their own (``backend.sshkeys``).
    keys = FakeSshKeys(fake)
    monkeypatch.setattr(_base.RunPodModule, "backend", property(lambda self: SimpleNamespace(sshkeys=keys)))
    args = {"api_key": API_KEY, **args}
    if check_mode:
        args["_ansible_check_mode"] = True
    with patch_module_args(args), pytest.raises(SystemExit):
        module.main()
    result = json.loads(capsys.readouterr().out)
    assert API_KEY not in json.dumps(result)
    return result


VOLUME = NetworkVolumeView(id="vol1", name="data", size_gb=50, data_center_id="EU-RO-1", type="STANDARD")


@pytest.mark.parametrize(
    "args,expected",
    [
        ({"name": "data", "size_gb": 40}, "never shrink"),
        ({"name": "data", "data_center_id": "US-TX-3"}, "data_center_id is fixed"),
        ({"name": "data", "type": "HIGH_PERFORMANCE"}, "type is fixed"),
    ],
)
def test_network_volume_refuses_shrink_and_immutable_changes_without_writing(monkeypatch, capsys, args, expected):
    fake = FakeAccount([VOLUME])
    result = run(network_volume, monkeypatch, capsys, fake, args)
    assert result["failed"] is True and result["code"] == "bad_request" and expected in result["msg"]
    assert result["changed"] is False
    assert [call[0] for call in fake.calls] == ["find_network_volumes"]


@pytest.mark.parametrize(
    "args,expected",
    [
        ({"name": "data", "size_gb": 9, "data_center_id": "EU-RO-1"}, "from 10 to 4096"),
        ({"name": "data", "size_gb": 4097, "data_center_id": "EU-RO-1"}, "from 10 to 4096"),
        ({"name": "data", "size_gb": 20, "type": "STANDARD", "api_version": "v1"},
         "RunPod retired REST v1 on 2026-11-15"),
    ],
)
def test_network_volume_bad_input_fails_before_any_call(monkeypatch, capsys, args, expected):
    fake = FakeAccount([VOLUME])
    result = run(network_volume, monkeypatch, capsys, fake, args)
    assert result["code"] == "bad_request" and expected in result["msg"]
    assert fake.calls == []


@pytest.mark.parametrize(
    "module, args, msg",
    [
        (network_volume, {"name": "data", "size_gb": 20},
         "no network volume named 'data' exists, and creating one needs data_center_id"),
        (network_volume, {"name": "data"},
         "no network volume named 'data' exists, and creating one needs size_gb and data_center_id"),
        (container_registry, {"name": "hub", "username": "me"},
         "no registry credential named 'hub' exists, and creating one needs password"),
        (container_registry, {"name": "hub"},
         "no registry credential named 'hub' exists, and creating one needs username and password"),
    ],
)
def test_a_create_without_what_it_needs_fails_with_the_shared_message(monkeypatch, capsys, module, args, msg):
    fake = FakeAccount()
    result = run(module, monkeypatch, capsys, fake, args)
    assert (result["msg"], result["code"], result["changed"]) == (msg, "bad_request", False)
    lookup = "find_network_volumes" if module is network_volume else "find_registries"
    assert [call[0] for call in fake.calls] == [lookup]


def test_network_volume_grow_in_check_mode_plans_without_writing(monkeypatch, capsys):
    fake = FakeAccount([VOLUME])
    result = run(
        network_volume,
        monkeypatch,
        capsys,
        fake,
        {"name": "data", "size_gb": 80, "_ansible_diff": True},
        check_mode=True,
    )
    assert result["changed"] is True and result["network_volume"]["size_gb"] == 80
    assert result["diff"] == {"before": {"size_gb": 50}, "after": {"size_gb": 80}}
    assert [call[0] for call in fake.calls] == ["find_network_volumes"]


def test_ssh_key_check_mode_and_retired_v1_refusal(monkeypatch, capsys):
    fake = FakeAccount(keys=["ssh-ed25519 AAAA old"])
    result = run(ssh_key, monkeypatch, capsys, fake, {"key": "ssh-rsa BBBB new", "exclusive": True}, check_mode=True)
    assert result["changed"] is True and result["ssh_keys"] == ["ssh-rsa BBBB new"]
    assert result["removed"] == ["ssh-ed25519 AAAA old"] and fake.calls == [("get_ssh_keys",)]
    fake = FakeAccount()
    result = run(ssh_key, monkeypatch, capsys, fake, {"key": "ssh-rsa BBBB", "api_version": "v1"})
    assert result["code"] == "bad_request" and fake.calls == []
    assert "RunPod retired REST v1 on 2026-11-15" in result["msg"]


def test_billing_info_refuses_bad_times_before_any_call(monkeypatch, capsys):
    fake = FakeAccount()
    result = run(billing_info, monkeypatch, capsys, fake, {"start_time": "2026-06-01T00:00:00"})
    assert result["code"] == "bad_request" and "start_time needs a time zone" in result["msg"]
    result = run(billing_info, monkeypatch, capsys, fake, {"kind": "all", "resource_id": "p1"})
    assert result["code"] == "bad_request" and "resource_id" in result["msg"]


def test_a_replacement_whose_create_fails_says_the_old_credential_is_gone(monkeypatch, capsys):
    fake = FakeAccount()
    fake.registries = [RegistryView(id="reg-old", name="hub")]
    fake.create_error = RunPodError("bad_request", 400, "registry rejected the credential")
    args = {"name": "hub", "username": "me", "password": "s3cret-value", "update_password": "always"}
    result = run(container_registry, monkeypatch, capsys, fake, args)
    assert result["failed"] is True and result["changed"] is True and result["actions"] == ["delete"]
    assert "the old credential was deleted" in result["msg"] and "run the task again" in result["msg"]
    assert [call[0] for call in fake.calls] == ["find_registries", "delete_registry", "create_registry"]
    assert "s3cret-value" not in json.dumps(result)


@pytest.mark.parametrize(
    "module, args, calls, msg",
    [
        (
            network_volume,
            {"name": "data", "size_gb": 20, "data_center_id": "EU-RO-1"},
            ["find_network_volumes", "create_network_volume"],
            "creating network volume 'data' failed (bad gateway, server_error), and RunPod may have created it "
            "anyway; it was not retried: check with runpod.cloud.network_volume_info name=data before running this "
            "task again",
        ),
        (
            container_registry,
            {"name": "hub", "username": "me", "password": "s3cret-value"},
            ["find_registries", "create_registry"],
            "creating registry credential 'hub' failed (bad gateway, server_error), and RunPod may have created it "
            "anyway; it was not retried: rerun this task (it finds the credential by name)",
        ),
    ],
)
def test_a_create_that_may_have_happened_is_not_retried(monkeypatch, capsys, module, args, calls, msg):
    fake = FakeAccount()
    fake.create_error = RunPodError("server_error", 502, "bad gateway", maybe_created=True)
    result = run(module, monkeypatch, capsys, fake, args)
    assert (result["msg"], result["code"], result["status"], result["changed"]) == (msg, "server_error", 502, True)
    assert [call[0] for call in fake.calls] == calls


def test_fake_account_matches_the_real_interface():
    check_fake_matches_interface(FakeAccount(), FakeBackend().account)
    check_fake_matches_interface(FakeSshKeys(FakeAccount()), FakeBackend().sshkeys)

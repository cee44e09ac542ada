# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: ssh_key
short_description: Manage the SSH public keys registered on a RunPod account
version_added: 0.2.0
description:
  - Add or remove the account's SSH public keys, the keys RunPod installs in pods started with SSH
    (O(runpod.cloud.pod#module:ssh)). Keys take effect for pods created afterwards; running pods keep the
    keys they started with.
  - Keys are compared by type and key body, not by comment, so a key registered with another comment counts as
    present (its registered comment is kept).
  - RunPod only offers "read the list" and "replace the whole list". The module reads the list, changes it and
    writes it back, so a change made by someone else between the two requests is lost (see the notes).
extends_documentation_fragment:
  - runpod.cloud.common.RESOURCE
options:
  key:
    description:
      - The public key, one C(authorized_keys) line C(<type> <base64-key> [comment]) as in C(~/.ssh/id_ed25519.pub),
        for example V(ssh-ed25519 AAAAC3Nza... me@example.com).
      - Several keys may be given, one per line; blank lines and lines starting with C(#) are ignored.
      - Key options before the type (C(command="..." ssh-ed25519 ...)) are not accepted by RunPod.
      - V("") with O(exclusive=true) removes every key.
    type: str
    required: true
  state:
    description:
      - V(present) registers O(key) if it is not registered yet; V(absent) removes it.
    type: str
    choices: [present, absent]
    default: present
  exclusive:
    description:
      - With V(true), the account's list becomes exactly the keys in O(key); every other key is removed.
      - Only with O(state=present).
    type: bool
    default: false
notes:
  - The read-modify-write race. Two writers that overlap (two playbooks, or this module run for several hosts at
    once) can each read the old list and write back their own version, so one change is silently lost. Change
    the account's keys from one task at a time, for example with the C(run_once) or C(throttle) task keywords, and give
    all keys in one task (one line each) rather than looping over them in parallel.
"""

EXAMPLES = r"""
- name: Register my laptop key (once, whatever the inventory size)
  runpod.cloud.ssh_key:
    key: "{{ lookup('ansible.builtin.file', '~/.ssh/id_ed25519.pub') }}"
  run_once: true

- name: Make the team's keys the only ones on the account
  runpod.cloud.ssh_key:
    key: |
      ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILXGDN/SclOozk1xsDztpmhGiKkkrfQB9SKoO8dSIQQZ alice@example.com
      ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFi0v3sQ7n2dJmLr1d0Hq8aW9xYpT6u5Vb4cN3eR2kZt bob@example.com
    exclusive: true
  run_once: true
  diff: true

- name: Remove a departed colleague's key
  runpod.cloud.ssh_key:
    key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFi0v3sQ7n2dJmLr1d0Hq8aW9xYpT6u5Vb4cN3eR2kZt
    state: absent
  run_once: true
"""

RETURN = r"""
ssh_keys:
  description: The account's registered keys after the task (the planned list in check mode).
  returned: always
  type: list
  elements: str
  sample:
    - ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILXGDN/SclOozk1xsDztpmhGiKkkrfQB9SKoO8dSIQQZ alice@example.com
added:
  description: Keys the task registered.
  returned: always
  type: list
  elements: str
  sample:
    - ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILXGDN/SclOozk1xsDztpmhGiKkkrfQB9SKoO8dSIQQZ alice@example.com
removed:
  description: Keys the task removed.
  returned: always
  type: list
  elements: str
  sample: []
diff:
  description: The key list before and after, one key per line.
  returned: when changed and in diff mode
  type: dict
  sample:
    before: ""
    after: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILXGDN/SclOozk1xsDztpmhGiKkkrfQB9SKoO8dSIQQZ alice@example.com\n"
code:
  description:
    - Machine-readable failure code, for example V(bad_request) (a line that is not a public key),
      V(unprocessable) or V(unauthorized).
  returned: failure
  type: str
  sample: bad_request
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.runpod.cloud.plugins.module_utils._api.account_inputs import SshKeyInput
from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._api.values import key_lines
from ansible_collections.runpod.cloud.plugins.module_utils._backend.shared import SshKeys
from ansible_collections.runpod.cloud.plugins.module_utils._module.base import RunPodModule, check_input, run_module
from ansible_collections.runpod.cloud.plugins.module_utils._module.specs import AUTH_ARGUMENT_SPEC, argument_spec

ARGUMENT_SPEC = argument_spec(
    AUTH_ARGUMENT_SPEC,
    key=dict(type="str", required=True, no_log=False),
    state=dict(type="str", choices=["present", "absent"], default="present"),
    exclusive=dict(type="bool", default=False),
)


def identity(line):
    """``(type, body)`` of a key line; a line that is not a key is its own identity."""
    parts = line.split()
    return (parts[0], parts[1]) if len(parts) >= 2 else (line, "")


def plan(current, given, state, exclusive):
    """``(new list, added, removed)``; ``current`` keeps its order and comments, new keys go last."""
    wanted = {}
    for line in given:
        wanted.setdefault(identity(line), line)
    have = {identity(line) for line in current}
    if state == "absent":
        new = [line for line in current if identity(line) not in wanted]
    elif exclusive:
        new = [line for line in current if identity(line) in wanted]
        new += [line for key, line in wanted.items() if key not in have]
    else:
        new = list(current) + [line for key, line in wanted.items() if key not in have]
    kept = {identity(line) for line in new}
    added = [line for line in new if identity(line) not in have]
    removed = [line for line in current if identity(line) not in kept]
    return new, added, removed


class SshKeyModule(RunPodModule):
    uses = (SshKeys,)
    result_key = "ssh_keys"
    resource_kind = "SSH key"

    def run(self):
        params = self.module.params
        check_input(self, SshKeyInput)  # every input rule (and no private key), before any API call
        given = key_lines(params["key"])
        keys = self.backend.sshkeys
        try:
            current = keys.list()
        except RunPodError as error:
            self.fail_api(error, "reading the account's SSH keys failed")
        new, added, removed = plan(current, given, params["state"], params["exclusive"])
        self.result.update(ssh_keys=list(current), added=added, removed=removed)
        if new == current:
            self.exit()
        self.mark_changed()
        if self.module._diff:
            self.result["diff"] = {
                "before": "".join(f"{line}\n" for line in current),
                "after": "".join(f"{line}\n" for line in new),
                "before_header": "account SSH keys",
                "after_header": "account SSH keys",
            }
        if self.module.check_mode:
            self.exit(ssh_keys=new)
        try:
            written = keys.replace(new)
        except RunPodError as error:
            self.fail_api(error, "writing the account's SSH keys failed", changed=False)
        self.exit(ssh_keys=written)


def main():
    module = AnsibleModule(argument_spec=ARGUMENT_SPEC, supports_check_mode=True)
    run_module(SshKeyModule, module)


if __name__ == "__main__":
    main()

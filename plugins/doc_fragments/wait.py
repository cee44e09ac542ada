# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations


class ModuleDocFragment:
    # Paired with WAIT_ARGUMENT_SPEC in plugins/module_utils/_module/specs.py: change both together.
    DOCUMENTATION = r"""
options:
  wait:
    description:
      - Whether to block until the resource is ready. What ready means is defined by each module.
      - A wait never deletes anything. On timeout, interrupt or a fatal error the task fails with the
        resource id, its last known state and how to inspect or delete it; rerunning the task finds the
        resource by name and resumes waiting on it.
      - Ignored in check mode.
    type: bool
    default: false
  wait_timeout:
    description:
      - How long to wait at most.
      - A duration such as V(90s), V(10m), V(1h30m), V(1.5h) or V(7d), or a number of seconds.
        It must be positive and at most V(106751d). Checked before any API call.
    type: raw
    default: 10m
  wait_interval:
    description:
      - Average time between API reads while waiting, in the same format as O(wait_timeout).
      - The first read is immediate and a final read happens at the deadline. In between, reads come
        sooner (half an interval apart) while a state change is close, for a pod C(STARTING) or
        C(RUNNING) without its public SSH port yet, and after a read whose status changed (the first
        read included), and up to two intervals apart in steady phases
        until a bank of 3 reads is full again. A wait that lasts T makes at most
        T / O(wait_interval) + 3 API reads, the final one included.
      - A rate limit's C(Retry-After) always delays the next read. Cheap SSH probes of a known
        address run more often and are not API reads.
    type: raw
    default: 5s
"""

    # Pods only (runpod.cloud.pod and runpod.cloud.pod_info). Paired with POD_WAIT_ARGUMENT_SPEC.
    POD = r"""
options:
  wait_for:
    description:
      - What O(wait=true) waits for.
      - V(ssh) (default) waits until the public port mapped to the pod's private port 22 accepts a TCP
        connection and answers with an C(SSH-) banner. This proves sshd is up, not that a login will work.
      - V(running) waits until RunPod reports the pod running with its container up (runtime reported),
        which can be minutes before sshd answers.
    type: str
    choices: [ssh, running]
    default: ssh
"""

    # The batch waits of runpod.cloud.pod_info and runpod.cloud.cluster. Paired with HOST_KEY_ARGUMENT_SPEC.
    HOST_KEYS = r"""
options:
  host_key_checking:
    description:
      - How a wait for SSH trusts each pod's SSH host key. Once a pod's banner answers, the wait reads the host
        keys that pod presents (OpenSSH's C(ssh-keyscan) on the controller) and the C(ssh-keygen -lf) fingerprint
        lines RunPod's start script prints into its container log (read over the authenticated API), and
        compares them. Each pod's result has C(ssh.host_key_check), C(ssh.host_keys) (known_hosts lines) and
        C(ssh.host_key_fingerprints).
      - V(log) (default) is ready with a verified key when a pod's log shows fingerprints, else pins the keys
        seen at readiness with a warning naming the pod.
      - V(strict) is ready only with verified keys; when the wait ends with pods whose logs never showed
        fingerprints, it fails with C(code=host_key_unverified), naming each of them and the keys it presented.
      - V(off) checks nothing (no scan, no log read).
      - With V(log) and V(strict), a pod presenting a key that is not among its logged fingerprints fails the
        whole wait at once with C(code=host_key_mismatch), naming the pod and both fingerprints. Nothing is
        deleted.
      - Not read by a wait for V(running), which proves no banner.
      - See the collection's C(docs/pods.md) (section Trusting the pod's host key).
    type: str
    choices: [strict, log, 'off']
    default: log
    version_added: 0.3.0
  known_hosts_dir:
    description:
      - The directory on the controller where the action plugin writes one known_hosts file per pod
        (C(known_hosts_<pod id>), mode 0600, the directory 0700) holding each pod's C(ssh.host_keys) after a wait
        that checked them; each pod's C(ssh.ssh_args) and C(ssh.command) point at its file. The inventory
        plugin's C(known_hosts_dir) has the same default, so both write the same file for a pod.
    type: path
    default: ~/.cache/runpod.cloud/known_hosts
    version_added: 0.3.0
"""

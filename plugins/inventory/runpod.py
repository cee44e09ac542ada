# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
name: runpod
short_description: RunPod pods as Ansible hosts, reachable over their public SSH port
version_added: 0.1.0
description:
  - Reads the pods of a RunPod account and adds each one as a host named after the pod, with
    C(ansible_host), C(ansible_port) and C(ansible_user) set from the pod's public SSH address (the
    public port mapped to the pod's port 22), so plays can connect to it directly.
  - Costs one list read per inventory parse (every page of RunPod's pod list), and none at all when the cache
    is used.
  - Host names are the pod names where that is safe, so that nobody who can name a pod in the account can
    take over another host or a reserved name. A pod keeps its name as host name only when the name is made
    of letters, digits, C(_), C(.) and C(-) (not starting with C(.) or C(-)), not C(all), C(ungrouped),
    C(localhost), C(127.0.0.1) or C(::1) (in any case), not the name of a host or group already in the
    inventory (from an earlier inventory source, or the group C(runpod)), and not shared with another
    included pod.
  - Any other pod is named C(<name>-<id>) instead, with every character other than a letter, digit, C(_),
    C(.) or C(-) replaced by C(_) (and a C(_) before a leading C(.) or C(-)); a pod without a name is named
    after its id. A pod renamed for any reason
    other than a shared name gets a warning, and a pod whose host name would still be taken is left out
    with a warning.
  - Inventory sources are read in order, and this plugin sees only the hosts of the sources read before it, so
    list RunPod inventory files after your other sources (C(-i) order; files of an inventory directory are
    read in alphabetical order).
  - The plugin warns when the API key would be sent over plain http to a host that is not loopback, and when
    O(validate_certs=false).
  - Every host joins the group C(runpod). Host variables carry the C(runpod_) prefix, see the notes.
  - The configuration file name must end in C(runpod.yml) or C(runpod.yaml).
author:
  - runpod.cloud contributors (@runpod-cloud)
requirements:
  - httpx >= 0.27.0
  - pydantic >= 2.6.0
extends_documentation_fragment:
  - constructed
  - inventory_cache
options:
  plugin:
    description: The name of this plugin; it marks the file as a source for it.
    required: true
    type: str
    choices: [runpod.cloud.runpod]
  api_key:
    description:
      - RunPod API key. The source needs one, but not necessarily in this option.
      - Falls back to the E(RUNPOD_API_KEY) environment variable.
      - Templated, so a vaulted value or an C(ansible.builtin.env) lookup works (see the examples).
      - Never written to the inventory, the cache or any message.
      - Declared as a secret, so ansible-core 2.22 and later mask its value in all output, and the plugin registers
        a templated key as it renders it; older versions ignore the declaration.
    type: str
    required: true
    secret: true
    env:
      - name: RUNPOD_API_KEY
  api_version:
    description:
      - Deprecated, and ignored when V(v2). RunPod retired REST v1 on 2026-11-15, so REST v2 is the only API; any
        other value fails before any request.
    type: str
    env:
      - name: RUNPOD_API_VERSION
    deprecated:
      why: RunPod retired REST v1 on 2026-11-15; REST v2 is the only API left.
      version: 1.0.0
      alternatives: Remove the option.
  api_url:
    description:
      - Base URL of the RunPod REST API.
      - Defaults to V(https://api.runpod.io/v2). Templated.
    type: str
    env:
      - name: RUNPOD_API_URL
  serverless_url:
    description:
      - Base URL of the serverless data plane. Not read by this plugin; accepted so one set of
        connection settings serves the modules and the inventory.
    type: str
    env:
      - name: RUNPOD_SERVERLESS_URL
  validate_certs:
    description:
      - Whether to verify the TLS certificates of the API.
      - V(false) gets a warning, because anyone on the network path could pose as the API and read the key.
    type: bool
    default: true
  request_timeout:
    description:
      - Timeout in seconds of each HTTP request to the API, above 0 and at most 3600.
    type: float
    default: 30
  runtime_status:
    description:
      - Include only pods whose derived runtime status is one of these.
      - V(running) means the container is up; see the C(runpod.cloud.pod_info) module for the vocabulary.
    type: list
    elements: str
    choices: [running, initializing, stopped, terminated, unknown]
    default: [running]
  name_pattern:
    description:
      - Include only pods whose name matches this shell-style B(glob) pattern, matched against the whole
        name and case-sensitively (C(*) any text, C(?) one character, C([abc]) a set), for example
        V(trainer-*). It is not a regular expression.
    type: str
  gpu_types:
    description:
      - Include only pods with one of these GPU type ids, for example V(NVIDIA GeForce RTX 4090).
    type: list
    elements: str
  data_center_ids:
    description:
      - Include only pods in one of these data centers, for example V(US-TX-3).
    type: list
    elements: str
  include_cluster_pods:
    description:
      - Whether members of Instant Clusters are read too (REST v2 only; one more read, of the clusters, when
        any member is listed).
      - Each member joins the group C(runpod_cluster_<cluster name>), C(runpod_cluster_<cluster name>_primary)
        when it is the cluster's primary (rank 0), and C(runpod_cluster_<cluster name>_<role>) when the
        cluster assigns roles (SLURM and RAY clusters), for example C(runpod_cluster_train_slurm_compute).
        Characters not valid in a group name become C(_).
    type: bool
    default: true
    version_added: 0.2.0
  include_unreachable:
    description:
      - Pods that have no public SSH address (no public port for 22, or not running) are left out by
        default, with a verbose line (C(-v)) saying why.
      - When true they are added anyway, without C(ansible_host), C(ansible_port) and C(ansible_user);
        C(runpod_ssh_not_ready) then says why there is no address.
    type: bool
    default: false
  host_key_checking:
    description:
      - Whether the parse checks each added pod's SSH host key against RunPod's own record of it, and sets the
        pod's connection to trust only that key.
      - With V(log) or V(strict), each pod with a public SSH address is scanned (OpenSSH's C(ssh-keyscan) on the
        controller) and its container log read over the authenticated API (one bounded read per pod, 8 at a time)
        for the C(ssh-keygen -lf) fingerprint lines RunPod's start script prints. The checked keys are written to
        C(<known_hosts_dir>/known_hosts_<pod id>) and the host gets C(ansible_ssh_common_args)
        C(-o StrictHostKeyChecking=yes -o UserKnownHostsFile=<that file>), and C(runpod_host_key_check)
        (C(verified) or C(pinned)) and C(runpod_known_hosts_file).
      - V(log) trusts verified keys, or pins the keys it sees when the log shows no fingerprints (with a warning);
        V(strict) adds only pods whose key is verified.
      - A pod whose presented key is not among its logged fingerprints (C(host_key_mismatch)), whose key cannot be
        read, or (under V(strict)) whose log shows no fingerprints is left out with a warning naming it; the
        inventory waits for nothing, and trusts nothing it could not check.
      - V(off) (default) checks nothing and sets no host key settings, so a parse costs one list read and no SSH
        connection (C(ansible-inventory --graph) stays cheap); use the C(runpod.cloud.hosts) role or the
        C(ssh.host_keys) of a pod wait, or turn this on, for a hand-off that trusts only checked keys.
      - With O(cache=true) the check is cached with the pods (within O(cache_timeout) a parse scans nothing and
        reads no log); the known_hosts files are written again from it.
      - Keep Ansible's C(host_key_checking) on (its default), or Ansible puts C(StrictHostKeyChecking=no) ahead of
        these settings.
    type: str
    choices: [strict, log, 'off']
    default: 'off'
    version_added: 0.3.0
  known_hosts_dir:
    description:
      - Where O(host_key_checking) writes one known_hosts file per pod (the directory is made with mode 0700, each
        file 0600).
    type: path
    default: ~/.cache/runpod.cloud/known_hosts
    version_added: 0.3.0
notes:
  - "A source that fails (a wrong API key, an unreachable API) is only a warning to Ansible by default:
    C(ansible-playbook) goes on with no hosts and exits 0 after C(no hosts matched). To make such a
    failure fail the run, set E(ANSIBLE_INVENTORY_ANY_UNPARSED_IS_FAILED=true) (C(any_unparsed_is_failed) in the
    C([inventory]) section of C(ansible.cfg))."
  - "Host variables: C(runpod_id), C(runpod_name), C(runpod_status) (the API's lifecycle value),
    C(runpod_runtime_status), C(runpod_reason) (the runtime status reason token or null),
    C(runpod_gpu) (C({type, count, vcpu_count, memory_gb}); the host vCPUs and RAM in GB that come with the GPUs),
    C(runpod_data_center_id), C(runpod_cost_per_hr), C(runpod_ports), C(runpod_image),
    C(runpod_ssh) (C({host, port, user, command}) or null), C(runpod_ssh_not_ready), C(runpod_lease) (the pod's
    lease as M(runpod.cloud.pod_info) reports it, at the time of the read; null without one) and
    C(runpod_utilization) (C({gpus, cpu, memory}) in percent; null when not running). Their names are public
    interface."
  - "With O(host_key_checking) on, also C(runpod_host_key_check) and C(runpod_known_hosts_file)."
  - "Cluster members also get C(runpod_cluster_id), C(runpod_cluster_name), C(runpod_cluster_type),
    C(runpod_cluster_role) (null for TRAINING and APPLICATION clusters), C(runpod_cluster_rank),
    C(runpod_cluster_ip) (the member's address on the cluster's private network, null until assigned) and
    C(runpod_cluster_primary) (true on the primary node)."
  - The cache stores the pods as read (never the API key); with O(cache=true) a parse within
    O(cache_timeout) makes no API call, and C(--flush-cache) forces a fresh read.
seealso:
  - module: runpod.cloud.pod_info
"""

EXAMPLES = r"""
# inventory/runpod.yml: every running pod, grouped by GPU type and data center
plugin: runpod.cloud.runpod
keyed_groups:
  - key: runpod_gpu.type
    prefix: gpu
  - key: runpod_data_center_id
    prefix: dc
groups:
  expensive: runpod_cost_per_hr > 1.0

---
# inventory/trainers.runpod.yml: only the trainer pods, key from a vaulted variable, cached for 5 minutes
plugin: runpod.cloud.runpod
api_key: "{{ lookup('ansible.builtin.env', 'RUNPOD_TRAINER_KEY') }}"
name_pattern: "trainer-*"
gpu_types: ["NVIDIA H100 80GB HBM3"]
data_center_ids: [US-TX-3, EU-RO-1]
cache: true
cache_timeout: 300
compose:
  ansible_ssh_private_key_file: "'~/.ssh/runpod_ed25519'"

---
# inventory/checked.runpod.yml: connect only to the host key each pod's container log vouches for
plugin: runpod.cloud.runpod
host_key_checking: strict
known_hosts_dir: ~/.cache/runpod.cloud/known_hosts
compose:
  ansible_ssh_private_key_file: "'~/.ssh/runpod_ed25519'"

---
# inventory/all.runpod.yml: every pod, also the ones that are not reachable yet
plugin: runpod.cloud.runpod
runtime_status: [running, initializing, stopped, unknown]
include_unreachable: true
"""

import collections
import fnmatch
import json
import re

from ansible import constants
from ansible.errors import AnsibleError
from ansible.module_utils.common.text.converters import to_native
from ansible.plugins.inventory import BaseInventoryPlugin, Cacheable, Constructable
from ansible.utils.display import Display

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import HAS_HTTPX, HTTPX_IMPORT_ERROR, RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._api.inputs import HAS_PYDANTIC, PYDANTIC_IMPORT_ERROR
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import describe_pod
from ansible_collections.runpod.cloud.plugins.plugin_utils._local_command import run_local

display = Display()

CONNECTION_OPTIONS = (
    "api_key",
    "api_version",
    "api_url",
    "serverless_url",
    "validate_certs",
    "request_timeout",
)
TEMPLATED_OPTIONS = ("api_key", "api_url", "serverless_url")
HOSTVAR_PREFIX = "runpod_"
DEFAULT_GROUP = "runpod"
_GROUP_UNSAFE = re.compile(r"[^A-Za-z0-9_]")
# Names that a pod must never take over: Ansible's implicit groups and localhost's aliases (compared lowercased).
RESERVED_HOST_NAMES = frozenset(("all", "ungrouped", *(name.lower() for name in constants.LOCALHOST)))
# Safe as a host name and in a host pattern: no separators (, :), wildcards (* ? [), operators (! & ~) or spaces.
SAFE_HOST_NAME = re.compile(r"\A[A-Za-z0-9_][A-Za-z0-9_.-]*\Z")
UNSAFE_HOST_CHARACTERS = re.compile(r"[^A-Za-z0-9_.-]")


def pod_record(pod, clusters=None):
    """What the plugin keeps (and caches) per pod: the shared JSON-safe shape of design section 4, plus
    ``cluster`` for a cluster member (``clusters``: cluster id -> ``ClusterView``)."""
    record = describe_pod(pod)
    cluster_id = getattr(pod, "cluster_id", None)
    if cluster_id:
        cluster = (clusters or {}).get(cluster_id)
        record["cluster"] = {
            "id": cluster_id,
            "name": cluster.name if cluster is not None else cluster_id,
            "type": cluster.type if cluster is not None else None,
            "role": pod.cluster_role,
            "rank": pod.cluster_rank,
            "ip": pod.cluster_ip,
            "primary": (cluster.primary_pod_id == pod.id) if cluster is not None and cluster.primary_pod_id
            else pod.cluster_rank == 0,
        }
    return record


def cluster_groups(cluster):
    """The groups of one member: per cluster, its primary, and per role when the cluster assigns roles.

    Characters not valid in a group name become ``_`` whatever TRANSFORM_INVALID_GROUP_CHARS says, so the
    names are predictable (``llm-train`` -> ``runpod_cluster_llm_train``)."""
    base = "runpod_cluster_" + _GROUP_UNSAFE.sub("_", str(cluster["name"]))
    groups = [base]
    if cluster.get("primary"):
        groups.append(base + "_primary")
    if cluster.get("role"):
        groups.append("%s_%s" % (base, str(cluster["role"]).lower()))
    return groups


def hostvars_for(record):
    """The ``runpod_*`` host variables of one pod record (names are public interface)."""
    values = {
        "id": record.get("id"),
        "name": record.get("name"),
        "status": record.get("status"),
        "runtime_status": record.get("runtime_status"),
        "reason": record.get("runtime_status_reason"),
        "gpu": record.get("gpu") or {"type": None, "count": 0},
        "data_center_id": record.get("data_center_id"),
        "cost_per_hr": record.get("cost_per_hr"),
        "ports": list(record.get("ports") or []),
        "image": record.get("image"),
        "ssh": record.get("ssh"),
        "ssh_not_ready": record.get("ssh_not_ready"),
        "lease": record.get("lease"),
        "utilization": record.get("utilization"),
    }
    cluster = record.get("cluster")
    if cluster:
        values.update({"cluster_" + key: cluster.get(key) for key in ("id", "name", "type", "role", "rank", "ip")})
        values["cluster_primary"] = bool(cluster.get("primary"))
    return {HOSTVAR_PREFIX + key: value for key, value in values.items()}


def _quoted(name):
    return json.dumps(name, ensure_ascii=False)


def host_names(records, taken=()):
    """Host name per pod id, following the naming rule in DOCUMENTATION; never a name in ``taken`` or reserved.

    ``taken``: host and group names already in the inventory. Returns ``(names, notes)``: ``names`` maps pod id to
    host name (pods left out are absent), ``notes`` has one line per pod that was renamed for safety or left out.
    """
    counts = collections.Counter(record.get("name") or "" for record in records)
    used = set(taken) | {DEFAULT_GROUP}

    def unusable(name):
        if name.lower() in RESERVED_HOST_NAMES:
            return "a name Ansible reserves"
        if not SAFE_HOST_NAME.match(name):
            return 'a name with characters other than letters, digits, "_", "." and "-"'
        if name in used:
            return "already a host or group name in the inventory"
        return None

    names, notes, plain = {}, [], []
    # Names made from the pod's own id go first: a pod named after another pod's derived name cannot displace it.
    derived = []
    for record in records:
        name = record.get("name") or ""
        why = unusable(name) if name else None
        if name and why is None and counts[name] == 1:
            plain.append(record)
        else:
            derived.append((record, why))
    for record, why in derived:
        _assign(record, _derived_name(record), why, names, notes, used)
    for record in plain:
        if record["name"] in used:
            # Only a derived name of another pod can be here (unusable() checked the rest).
            _assign(record, _derived_name(record), "another pod's host name", names, notes, used)
        else:
            _assign(record, record["name"], None, names, notes, used)
    return names, notes


def _derived_name(record):
    name = record.get("name") or ""
    if not name:
        return record["id"]
    safe = UNSAFE_HOST_CHARACTERS.sub("_", name)
    if not SAFE_HOST_NAME.match(safe):
        safe = "_" + safe  # a leading "." or "-"
    return "%s-%s" % (safe, record["id"])


def _assign(record, host, why, names, notes, used):
    pod = "pod %s named %s" % (record["id"], _quoted(record.get("name") or ""))
    if host in used or host.lower() in RESERVED_HOST_NAMES:
        notes.append("%s left out: its host name %s is already taken in the inventory" % (pod, _quoted(host)))
        return
    used.add(host)
    names[record["id"]] = host
    if why is not None:
        notes.append("%s added as host %s: its name is %s" % (pod, _quoted(host), why))


class InventoryModule(BaseInventoryPlugin, Constructable, Cacheable):
    NAME = "runpod.cloud.runpod"

    def verify_file(self, path):
        if not super().verify_file(path):
            return False
        if path.endswith(("runpod.yml", "runpod.yaml")):
            return True
        display.vvv("Skipping %s: a runpod.cloud.runpod inventory file name must end in runpod.yml or runpod.yaml"
                    % path)
        return False

    # --- options -------------------------------------------------------------------------------
    def _templated(self, name):
        value = self.get_option(name)
        if isinstance(value, str) and self.templar.is_template(value):
            value = self.templar.template(value)
        return value

    def _connection_options(self):
        from ansible_collections.runpod.cloud.plugins.module_utils._module.base import hide_secrets

        options = {}
        for name in CONNECTION_OPTIONS:
            options[name] = self._templated(name) if name in TEMPLATED_OPTIONS else self.get_option(name)
        if not options["api_key"]:
            raise AnsibleError(
                "The runpod.cloud.runpod inventory needs an API key: set api_key in the inventory file "
                "(a vaulted value works) or the RUNPOD_API_KEY environment variable."
            )
        # ansible-core 2.22 registers the option as given (`secret: true`); a lookup's or a template's key only here.
        hide_secrets([options["api_key"]])
        return options

    # --- reading -------------------------------------------------------------------------------
    def _fetch(self):
        """One list read; returns JSON-safe pod records (what the cache stores)."""
        for available, lib, error in (
            (HAS_HTTPX, "httpx", HTTPX_IMPORT_ERROR),
            (HAS_PYDANTIC, "pydantic", PYDANTIC_IMPORT_ERROR),
        ):
            if not available:
                raise AnsibleError(
                    "The runpod.cloud.runpod inventory plugin requires the Python library %s on the controller "
                    "(pip install %s): %s" % (lib, lib, error)
                )
        from ansible_collections.runpod.cloud.plugins.module_utils._backend.clusters import Clusters
        from ansible_collections.runpod.cloud.plugins.module_utils._backend.connection import (
            Gpus,
            make_backend,
            resolve_options,
            transport_warnings,
        )
        from ansible_collections.runpod.cloud.plugins.module_utils._backend.pods import Pods
        from ansible_collections.runpod.cloud.plugins.module_utils._backend.templates import Templates

        try:
            options = resolve_options(self._connection_options())
        except ValueError as exc:
            raise AnsibleError("Invalid runpod.cloud.runpod inventory option: %s" % to_native(exc)) from None
        for warning in transport_warnings(options):
            display.warning("runpod inventory: %s" % warning)
        backend = make_backend(options, uses=(Pods, Gpus, Clusters, Templates))
        with_members = self.get_option("include_cluster_pods")
        clusters = {}
        try:
            pods = backend.pods.list(include_cluster_pods=True) if with_members else backend.pods.list()
            if any(pod is not None and pod.cluster_id for pod in pods):
                clusters = {cluster.id: cluster for cluster in backend.clusters.list()}
        except RunPodError as error:
            raise AnsibleError(
                "The runpod.cloud.runpod inventory could not list pods: %s (%s)%s"
                % (error.message, error.code, self._remedy(error))
            ) from None
        finally:
            backend.close()
        return [pod_record(pod, clusters) for pod in pods if pod is not None]

    @staticmethod
    def _remedy(error):
        # A 401's message says where the key came from (the client); a 403 is the key's permissions.
        if error.code == "forbidden":
            return "; check the API key's permissions"
        return ""

    # --- filtering and hosts -------------------------------------------------------------------
    def _wanted(self, record):
        """``None`` when the pod passes the filters, else why not (for the verbose line)."""
        statuses = self.get_option("runtime_status") or []
        if statuses and record.get("runtime_status") not in statuses:
            return "its runtime status is %s, not one of %s" % (record.get("runtime_status"), ", ".join(statuses))
        pattern = self.get_option("name_pattern")
        if pattern and not fnmatch.fnmatchcase(record.get("name") or "", pattern):
            return "its name does not match %s" % pattern
        gpu_types = self.get_option("gpu_types")
        gpu_type = (record.get("gpu") or {}).get("type")
        if gpu_types and gpu_type not in gpu_types:
            return "its GPU type %s is not one of %s" % (gpu_type, ", ".join(gpu_types))
        data_centers = self.get_option("data_center_ids")
        if data_centers and record.get("data_center_id") not in data_centers:
            return "its data center %s is not one of %s" % (record.get("data_center_id"), ", ".join(data_centers))
        return None

    def _choose(self, records):
        """The records that pass the filters (and have an SSH address, unless ``include_unreachable``)."""
        include_unreachable = self.get_option("include_unreachable")
        chosen = []
        for record in records:
            why = self._wanted(record)
            if why is not None:
                display.vvv("runpod inventory: pod %s (%s) left out: %s" % (record["id"], record.get("name"), why))
                continue
            if record.get("ssh") is None and not include_unreachable:
                display.v(
                    "runpod inventory: pod %s (%s) left out because it has no public SSH address (%s); "
                    "set include_unreachable: true to add it without connection variables"
                    % (record["id"], record.get("name"), record.get("ssh_not_ready") or "pod not ready")
                )
                continue
            chosen.append(record)
        return chosen

    def _populate(self, chosen):
        chosen = [record for record in chosen if self._trusted(record)]
        taken = set(self.inventory.hosts) | set(self.inventory.groups)
        names, notes = host_names(chosen, taken)
        for note in notes:
            display.warning("runpod inventory: %s" % note)
        strict = self.get_option("strict")
        self.inventory.add_group(DEFAULT_GROUP)
        for record in chosen:
            host = names.get(record["id"])
            if host is None:
                continue
            self.inventory.add_host(host, group=DEFAULT_GROUP)
            if record.get("cluster"):
                for group in cluster_groups(record["cluster"]):
                    self.inventory.add_group(group)
                    self.inventory.add_child(group, host)
            hostvars = hostvars_for(record)
            ssh = record.get("ssh")
            if ssh is not None:
                hostvars.update(ansible_host=ssh["host"], ansible_port=ssh["port"], ansible_user=ssh["user"])
                hostvars.update(self._host_key_vars(record))
            for key, value in hostvars.items():
                self.inventory.set_variable(host, key, value)
            self._set_composite_vars(self.get_option("compose"), hostvars, host, strict=strict)
            self._add_host_to_composed_groups(self.get_option("groups"), hostvars, host, strict=strict)
            self._add_host_to_keyed_groups(self.get_option("keyed_groups"), hostvars, host, strict=strict)

    # --- entry point ---------------------------------------------------------------------------
    def parse(self, inventory, loader, path, cache=True):
        super().parse(inventory, loader, path, cache)
        self._read_config_data(path)
        cache_key = self.get_cache_key(path)
        use_cache = self.get_option("cache")
        read_cache = use_cache and cache
        update_cache = use_cache and not cache
        records = None
        if read_cache:
            try:
                records = self._cache[cache_key]
            except KeyError:
                update_cache = True
        if records is None:
            records = self._fetch()
        chosen = self._choose(records)
        self._check_host_keys(chosen)
        if update_cache:
            self._cache[cache_key] = records
        self._populate(chosen)

    # --- host keys (host_key_checking) ----------------------------------------------------------
    def _check_host_keys(self, chosen):
        """Annotate each chosen record with its host key check (``record["host_key"]``), unless it carries one of
        the same mode already (from the cache)."""
        mode = self.get_option("host_key_checking")
        if mode == "off":
            return
        todo = [record for record in chosen
                if record.get("ssh") and (record.get("host_key") or {}).get("mode") != mode]
        if not todo:
            return
        from ansible_collections.runpod.cloud.plugins.module_utils._backend.connection import (
            Gpus,
            make_backend,
            resolve_options,
        )
        from ansible_collections.runpod.cloud.plugins.module_utils._backend.pods import Pods
        from ansible_collections.runpod.cloud.plugins.module_utils._engine.outcome import PollError
        from ansible_collections.runpod.cloud.plugins.plugin_utils._inventory_host_keys import check_pods

        try:
            options = resolve_options(self._connection_options())
        except ValueError as exc:
            raise AnsibleError("Invalid runpod.cloud.runpod inventory option: %s" % to_native(exc)) from None
        backend = make_backend(options, uses=(Pods, Gpus))
        try:
            checks = check_pods(backend, todo, mode, run=run_local)
        except PollError as error:  # ssh_client_missing: no ssh-keyscan on the controller
            raise AnsibleError("runpod inventory: host_key_checking is %s, but %s" % (mode, error)) from None
        finally:
            backend.close()
        for record in todo:
            record["host_key"] = checks[record["id"]]

    def _trusted(self, record):
        """False (with a warning) for a pod whose host key the check could not trust: it is left out."""
        check = record.get("host_key") if self.get_option("host_key_checking") != "off" else None
        if not check or not record.get("ssh"):
            return True
        if check.get("problem"):
            display.warning("runpod inventory: pod %s (%s) left out: %s"
                            % (record["id"], record.get("name"), check["problem"]))
            return False
        if check.get("warning"):
            display.warning("runpod inventory: %s" % check["warning"])
        return True

    def _host_key_vars(self, record):
        """The connection's host key settings from the check: the pod's own known_hosts file, strictly."""
        check = record.get("host_key") if self.get_option("host_key_checking") != "off" else None
        if not check or not check.get("host_keys"):
            return {}
        from ansible_collections.runpod.cloud.plugins.plugin_utils import _known_hosts

        path = _known_hosts.write_known_hosts(self.get_option("known_hosts_dir"), record["id"], check["host_keys"])
        return {
            "ansible_ssh_common_args": _known_hosts.ssh_common_args(path),
            HOSTVAR_PREFIX + "host_key_check": check["host_key_check"],
            HOSTVAR_PREFIX + "known_hosts_file": path,
        }

# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""Instant Clusters on REST v2 (``/clusters``): create body and the backend calls (``_payloads.CLUSTER`` reads them).

Clusters exist only on REST v2; ``ClusterCalls`` is mixed into ``BackendV2``. A cluster's ``pods`` field is
only a count summary, the members themselves are read with ``list_cluster_pods`` (one read for all).
"""

from __future__ import annotations

from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError, post_create
from ansible_collections.runpod.cloud.plugins.module_utils._api.payloads import CLUSTER
from ansible_collections.runpod.cloud.plugins.module_utils._api.readers import pick_list
from ansible_collections.runpod.cloud.plugins.module_utils._backend.collection import collection_reads, quote_id
from ansible_collections.runpod.cloud.plugins.module_utils._backend.core import mounts_body
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.normalize import env_strings, with_ssh_port

CLUSTER_TYPES = ("TRAINING", "SLURM", "RAY", "APPLICATION")
ROLES = ("SLURM_CONTROLLER", "SLURM_COMPUTE", "RAY_HEAD", "RAY_WORKER")


def cluster_create_body(spec, template=None):
    """The CreateClusterRequest for ``spec``. A ``template`` (``TemplateView``) is spread into the body, since the
    cluster create has no template id; what the task sets wins over the template."""
    image = spec.image or (template.image if template is not None else None)
    if not image:
        raise ValueError("a cluster needs an image (or a template_id whose template names one)")
    body = {
        "name": spec.name,
        "type": spec.type.upper(),
        "compute": {
            "gpuTypeId": spec.gpu_type_id,
            "gpuCountPerPod": int(spec.gpu_count_per_pod),
            "podCount": int(spec.pod_count),
        },
        "image": image,
    }
    env = dict(template.env) if template is not None else {}
    env.update(spec.env or {})
    ports = list(spec.ports or (template.ports if template is not None else []))
    disk = spec.container_disk_gb or (template.container_disk_gb if template is not None else None)
    args = spec.docker_args or (template.docker_args if template is not None else None)
    if disk:
        body["disk"] = int(disk)
    if args:
        body["args"] = args
    if env:
        body["env"] = env_strings(env)
    ports = with_ssh_port(ports, spec.start_ssh)
    if ports:
        body["ports"] = ports
    mounts = mounts_body(spec.volume_gb, spec.volume_mount_path, spec.network_volume_id)
    if mounts:
        body["mounts"] = mounts
    if spec.data_center_ids:
        body["dataCenterIds"] = list(spec.data_center_ids)
    body["startSsh"] = bool(spec.start_ssh)
    return body


class ClusterCalls:
    """REST v2 cluster calls; mixed into ``BackendV2`` (uses its ``client``, ``view_pod`` and ``get_template``)."""

    # What BackendV2 provides (declared for the type checker only).
    client: Any
    view_pod: Any
    get_template: Any
    read_gpu_catalog: Any

    clusters_path = "clusters"
    list_clusters, get_cluster, find_clusters = collection_reads("clusters_path", "clusters", "cluster", CLUSTER)

    def list_cluster_pods(self, cluster_id, attempts=None):
        """Every member as a full pod (one read); 404 raises ``not_found``."""
        payload = self.client.request("GET", f"clusters/{quote_id(cluster_id)}/pods", attempts=attempts)
        return [self.view_pod(raw) for raw in pick_list(payload, "pods", "pod")]

    def create_cluster(self, spec):
        """One POST (plus one template read when ``spec.template_id``). A 5xx or a lost connection sets
        ``maybe_created``: the cluster may exist and bill, so the caller looks it up by name, never re-POSTs."""
        template = self.get_template(spec.template_id) if spec.template_id else None
        body = cluster_create_body(spec, template)
        return CLUSTER.read(post_create(self.client, "clusters", body))

    def create_cluster_placed(self, spec):
        """A create with ``gpu_requirements`` or ``max_price_per_hr``: one catalog read (``product=CLUSTER``, the
        node's GPU count), then one POST per candidate by ``_placement``'s table. Returns ``(cluster, placement)``;
        a ``RunPodError`` carries ``placement`` as the pod create's does."""
        from ansible_collections.runpod.cloud.plugins.module_utils._backend import offers as _offers  # creates only
        from ansible_collections.runpod.cloud.plugins.module_utils._backend import placement as _placement

        template = self.get_template(spec.template_id) if spec.template_id else None
        choice = _offers.cluster_choice(spec)
        placement = _placement.Placement()
        given = [_placement.Candidate(spec.gpu_type_id)] if spec.gpu_type_id else []
        candidates = _placement.plan_priced(
            given,
            lambda: self.read_gpu_catalog(cloud="SECURE", count=spec.gpu_count_per_pod, product="CLUSTER"),
            placement,
            choice,
            _placement.cross,
        )

        def post(candidate):
            body = cluster_create_body(spec.model_copy(update={"gpu_type_id": candidate.type_id}), template)
            return post_create(self.client, "clusters", body)

        created = _placement.place(candidates, post, placement)
        try:
            return CLUSTER.read(created), placement.as_dict()
        except RunPodError as error:  # an answer without a cluster: it exists all the same
            raise _placement.attach(placement, error) from None

    def rename_cluster(self, cluster_id, name):
        """The only in-place change the API offers (``PATCH`` takes ``name`` alone)."""
        return CLUSTER.read(self.client.request("PATCH", f"clusters/{quote_id(cluster_id)}", json={"name": name}))

    def delete_cluster(self, cluster_id):
        """Deletes the cluster and terminates every member."""
        self.client.request("DELETE", f"clusters/{quote_id(cluster_id)}")


__all__ = [
    "CLUSTER_TYPES",
    "ROLES",
    "ClusterCalls",
    "cluster_create_body",
]

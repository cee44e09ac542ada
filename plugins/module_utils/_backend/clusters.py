# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""``backend.clusters``: Instant Clusters on REST v2 (``/clusters``; ``_vocab/cluster_fields.CLUSTER`` reads them).
A cluster's ``pods`` field is only a count summary: ``pods(cluster_id)`` reads the members (one read for all)."""

from __future__ import annotations

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import post_create
from ansible_collections.runpod.cloud.plugins.module_utils._backend.shared import Collection, mounts_body
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.cluster_fields import CLUSTER
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.fields import env_strings, pick_list, with_ssh_port
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import POD

# The fields the cluster's table sends as they are; the container part below merges a template's.
HEAD = ("name", "type", "gpu_type_id", "gpu_count_per_pod", "pod_count")
# What a create by ``templateId`` may not send beside it (the document's CreateClusterRequest: a 400).
TEMPLATE_EXCLUSIVE = ("image", "env", "container_disk_gb", "docker_args", "cmd", "entrypoint", "volume_gb",
                      "network_volume_id")


def by_template_id(spec, template):
    """Whether the create names its template (the link kept): no container setting, and the template's ports."""
    if template is None or any(getattr(spec, field) for field in TEMPLATE_EXCLUSIVE):
        return False
    return set(with_ssh_port(list(spec.ports), spec.start_ssh)) <= set(template.ports)


def cluster_create_body(spec, template=None):
    """The CreateClusterRequest: a ``template`` named (``by_template_id``) or spread in, the task's settings winning."""
    body = CLUSTER.body({key: getattr(spec, key) for key in HEAD}, creating=True)
    if by_template_id(spec, template):
        body["templateId"] = template.id
    else:
        body["image"] = spec.image or getattr(template, "image", None)
        if not body["image"]:
            raise ValueError("a cluster needs an image (or a template_id whose template names one)")
        disk = spec.container_disk_gb or getattr(template, "container_disk_gb", None)
        exec_form = {field: list(getattr(spec, field)) for field in ("entrypoint", "cmd") if getattr(spec, field)}
        # The template's ``args`` encodes both forms: beside the task's own exec form it would be a second command.
        args = spec.docker_args or (None if exec_form else getattr(template, "docker_args", None))
        env = {**getattr(template, "env", {}), **(spec.env or {})}
        parts = {"disk": int(disk) if disk else None, "args": args, **exec_form,
                 "env": env_strings(env) if env else None,
                 "ports": with_ssh_port(list(spec.ports or getattr(template, "ports", [])), spec.start_ssh),
                 "mounts": mounts_body(spec.volume_gb, spec.volume_mount_path, spec.network_volume_id)}
        body.update((key, value) for key, value in parts.items() if value)
    if spec.data_center_ids:
        body["dataCenterIds"] = list(spec.data_center_ids)
    body["startSsh"] = bool(spec.start_ssh)
    return body


class Clusters:
    """Clusters (a delete terminates every member too); ``templates`` and ``gpus`` serve a create."""

    def __init__(self, client, templates, gpus):
        self.client, self.templates, self.gpus = client, templates, gpus
        self.collection = c = Collection(client, "clusters", "clusters", "cluster", CLUSTER)
        self.list, self.get, self.find, self.delete = c.list, c.get, c.find, c.delete

    def pods(self, cluster_id, attempts=None):
        """Every member as a full pod; 404 raises ``not_found``."""
        payload = self.client.request("GET", f"{self.collection.at(cluster_id)}/pods", attempts=attempts)
        return [POD.read(raw) for raw in pick_list(payload, "pods", "pod")]

    def create(self, spec):
        template = self.templates.get(spec.template_id) if spec.template_id else None
        return CLUSTER.read(post_create(self.client, "clusters", cluster_create_body(spec, template)))

    def create_placed(self, spec):
        """A create with ``gpu_requirements`` or ``max_price_per_hr``, placed as a pod's (``placement.place``)."""
        from ansible_collections.runpod.cloud.plugins.module_utils._backend import placement  # creates only

        template = self.templates.get(spec.template_id) if spec.template_id else None

        def body(spec, type_id, _data_center_id):  # a cluster's body lists its data centers itself
            return cluster_create_body(spec.model_copy(update={"gpu_type_id": type_id}), template)

        return placement.place(self.client, self.gpus, "clusters", spec, body, CLUSTER.read)

    def rename(self, cluster_id, name):
        """The only in-place change the API offers (``PATCH`` takes ``name`` alone)."""
        return self.collection.patch(cluster_id, {"name": name})

"""The template backend (``_backend/templates.py``): create, read, update, delete and the in-use refusal."""

from __future__ import annotations

import httpx
import payloads
import pytest
from payloads import Router, backend_with, problem

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.container_fields import TemplateSpec

# -- templates -------------------------------------------------------------------------------------


def test_template_crud():
    router = Router()
    router.add("GET", "/v2/templates", {"templates": [payloads.v2_template(), None]})
    router.add("POST", "/v2/templates", httpx.Response(201, json=payloads.v2_template(id="tpl_new")))
    router.add("PATCH", "/v2/templates/tpl_new", payloads.v2_template(id="tpl_new", disk=60))
    router.add("DELETE", "/v2/templates/tpl_new", httpx.Response(204))
    backend = backend_with(router)
    (template,) = backend.templates.find("torch")
    assert template.model_dump() == {
        "id": "tpl_abc",
        "name": "torch",
        "image": "runpod/pytorch:2.1.0",
        "serverless": False,
        "container_disk_gb": 40,
        "env": {"A": "1"},
        "ports": ["22/tcp"],
        "docker_args": "sleep infinity",
        "cmd": None,
        "entrypoint": None,
        "registry_id": None,
    }
    created = backend.templates.create(
        TemplateSpec(name="torch2", image="img:1", container_disk_gb=30, ports=["22/tcp"])
    )
    assert created.id == "tpl_new"
    assert router.bodies("POST", "/v2/templates") == [
        {"name": "torch2", "image": "img:1", "serverless": False, "disk": 30, "ports": ["22/tcp"]}
    ]
    assert backend.templates.update("tpl_new", {"container_disk_gb": 60, "env": {}}).container_disk_gb == 60
    assert router.bodies("PATCH", "/v2/templates/tpl_new") == [{"disk": 60, "env": {}}]
    assert backend.templates.delete("tpl_new") is None
    with pytest.raises(ValueError, match="bogus"):
        backend.templates.update("tpl_new", {"bogus": 1})


def test_template_in_use_delete_surfaces_the_api_message():
    message = "Template is in use by a pod or serverless endpoint and cannot be deleted"
    router = Router().add("DELETE", "/v2/templates/t1", problem(400, message))
    with pytest.raises(RunPodError) as caught:
        backend_with(router).templates.delete("t1")
    assert (caught.value.code, caught.value.message) == ("bad_request", message)

"""Getting a GPU when stock is short: gpu_type_info and the pod create's placement, against the simulator.

One playbook walks createPod's table row by row: between tasks an ``ansible.builtin.uri`` task arms the next
simulator fault on the admin API, so each row costs one task and the suite one ansible-playbook run.
"""

from __future__ import annotations

import json

from helpers.playbooks import module_task, play, pod_task

# (the placement rules (module_utils), the same code on every core).

A, B, C, D = "NVIDIA GeForce RTX 4090", "NVIDIA GeForce RTX 3090", "NVIDIA RTX A5000", "NVIDIA RTX A6000"
POSTS = r"^/v2/pods$"


def fault(admin: str, name: str, route: str, kind: str, method: str = "POST", **params) -> str:
    body = {"route": route, "kind": kind, "method": method, **params}
    return (
        f"- name: {name}\n"
        f"  ansible.builtin.uri: {json.dumps({'url': f'{admin}/faults', 'method': 'POST', 'body_format': 'json', 'body': body, 'status_code': [200, 201]})}"  # noqa: E501
    )


def create(name: str, types: list[str], **extra) -> dict:
    return {"name": name, "image": "runpod/base:1.0", "gpu_type_ids": types, **extra}


def attempts(result: dict) -> list[tuple]:
    return [(a["gpu_type_id"], a["status"]) for a in result["placement"]["attempts"]]


def test_every_row_of_the_create_table(sim, run_playbook, tmp_path):
    admin = sim.urls["admin"]
    sim.admin.configure(out_of_stock_gpu_types=[A, B])
    tasks = [
        module_task("gpu_type_info", "catalog", {"min_stock": "LOW", "min_memory_gb": 24, "max_price": 0.6}),
        module_task("gpu_type_info", "chosen ids", {"ids": [D, A, C], "data_centers": True}),
        pod_task("first two out of stock", create("p-catalog", [A, B, C])),
        fault(admin, "arm a stock-out after the catalog read", POSTS, "stock_out"),
        pod_task("stock-out between catalog and create", create("p-race", [C, D])),
        fault(admin, "arm a 403", POSTS, "status", status=403, detail="this account cannot use the pool"),
        pod_task("403 skips", create("p-403", [C, D])),
        fault(admin, "arm a 429", POSTS, "status", status=429, detail="slow down", retry_after=1),
        pod_task("429 backs off and resumes", create("p-429", [C, D])),
        fault(admin, "arm a failing catalog", r"^/v2/catalog/gpus$", "status", method="GET", status=503,
              detail="catalog down"),
        pod_task("failed catalog read keeps the order", create("p-nocatalog", [A, C])),
        fault(admin, "arm 400 twice", POSTS, "stock_out", count=2),
        pod_task("every candidate 400", create("p-none", [C, D]), ignore_errors=True),
        fault(admin, "arm a 402", POSTS, "status", status=402, detail="insufficient balance"),
        pod_task("402 stops", create("p-402", [C, D]), ignore_errors=True),
        fault(admin, "arm a 422", POSTS, "status", status=422, detail="Request validation failed."),
        pod_task("422 never retried", create("p-422", [C, D]), ignore_errors=True),
        fault(admin, "arm a 5xx after the create", POSTS, "error_after_create", status=500),
        pod_task("5xx looks the pod up by name", create("p-5xx", [C, D])),
        pod_task("CUDA constraints exclusive",
                 create("p-cuda", [C], allowed_cuda_versions=["12.8"], min_cuda_version="12.4"), ignore_errors=True),
        pod_task("CUDA floor placed", create("p-cuda", [C], min_cuda_version="12.4")),
    ]
    result = run_playbook(tmp_path, play(*tasks))
    assert result.rc == 0, result.stdout + result.stderr

    listed = result.task_result("catalog")["gpu_types"]
    assert {A, B}.isdisjoint(gpu["id"] for gpu in listed)
    assert listed and all(g["memory_gb"] >= 24 and g["prices"]["secure"]["on_demand"] <= 0.6 for g in listed)
    chosen = result.task_result("chosen ids")
    assert [gpu["id"] for gpu in chosen["gpu_types"]] == [D, A, C]
    assert chosen["gpu_types"][1]["stock"] == "NONE" and chosen["gpu_types"][0]["stock_by_data_center"]
    assert chosen["data_centers"] and all(A not in dc["gpu_stock"] for dc in chosen["data_centers"])

    # The bench's correctness row: the catalog drops the first two types, one POST lands the third.
    landed = result.task_result("first two out of stock")
    assert landed["changed"] and landed["placement"]["gpu_type_id"] == C
    assert landed["placement"]["catalog"] == "read"
    assert [d["gpu_type_id"] for d in landed["placement"]["dropped"]] == [A, B]
    assert attempts(landed) == [(C, 201)]

    assert attempts(result.task_result("stock-out between catalog and create")) == [(C, 400), (D, 201)]
    assert attempts(result.task_result("403 skips")) == [(C, 403), (D, 201)]
    assert attempts(result.task_result("429 backs off and resumes")) == [(C, 201)]
    no_catalog = result.task_result("failed catalog read keeps the order")
    assert no_catalog["placement"]["catalog"].startswith("failed: ")
    assert attempts(no_catalog) == [(A, 400), (C, 201)]

    none = result.task_result("every candidate 400")
    assert none["failed"] and none["code"] == "no_capacity" and attempts(none) == [(C, 400), (D, 400)]
    assert "problem with the request itself" in none["msg"]
    broke = result.task_result("402 stops")
    assert broke["failed"] and broke["code"] == "insufficient_balance" and attempts(broke) == [(C, 402)]
    invalid = result.task_result("422 never retried")
    assert invalid["failed"] and invalid["code"] == "unprocessable" and attempts(invalid) == [(C, 422)]
    adopted = result.task_result("5xx looks the pod up by name")
    assert adopted["actions"] == ["adopt"] and attempts(adopted) == [(C, 500)]

    refused = result.task_result("CUDA constraints exclusive")
    assert refused["failed"] and refused["code"] == "bad_request" and "placement" not in refused
    assert result.task_result("CUDA floor placed")["changed"]

    log = sim.admin.requests()
    posts = [entry for entry in log if entry["method"] == "POST" and entry["path"] == "/v2/pods"]
    # 1 + 2 + 2 + 2 (429 then the same type) + 2 + 2 + 1 + 1 + 1 + 1 (the CUDA floor); none for the refusal.
    assert len(posts) == 15
    assert sim.admin.count("GET", r"^/v2/catalog/gpus$") == 2 + 10  # two info reads, one per create
    live = sorted(p["name"] for p in sim.admin.pods() if p["status"] != "TERMINATED")
    assert live == ["p-403", "p-429", "p-5xx", "p-catalog", "p-cuda", "p-nocatalog", "p-race"]

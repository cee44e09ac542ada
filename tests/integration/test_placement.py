"""Getting a GPU when stock is short: gpu_type_info and the pod create's placement, against the simulator.

The rows of createPod's table run one after the other, each module in this test's process (helpers.in_process:
the modules' own code over real HTTP, no ansible-playbook), and between rows the simulator's admin API arms the next
fault. The subject is what module_utils decides; Ansible's part of a pod task is the playbook tests'.
"""

from __future__ import annotations

from helpers.in_process import ModuleRuns

A, B, C, D = "NVIDIA GeForce RTX 4090", "NVIDIA GeForce RTX 3090", "NVIDIA RTX A5000", "NVIDIA RTX A6000"
POSTS = r"^/v2/pods$"


def create(name: str, types: list[str], **extra) -> dict:
    return {"name": name, "image": "runpod/base:1.0", "gpu_type_ids": types, **extra}


def attempts(result: dict) -> list[tuple]:
    return [(a["gpu_type_id"], a["status"]) for a in result["placement"]["attempts"]]


def test_every_row_of_the_create_table(sim, capsys):
    result = ModuleRuns(sim, capsys)
    sim.admin.configure(out_of_stock_gpu_types=[A, B])
    result.run("catalog", "gpu_type_info", {"min_stock": "LOW", "min_memory_gb": 24, "max_price": 0.6})
    result.run("chosen ids", "gpu_type_info", {"ids": [D, A, C], "data_centers": True})
    result.run("first two out of stock", "pod", create("p-catalog", [A, B, C]))
    sim.admin.inject_fault(POSTS, "stock_out", method="POST")  # after the catalog read
    result.run("stock-out between catalog and create", "pod", create("p-race", [C, D]))
    sim.admin.inject_fault(POSTS, "status", method="POST", status=403, detail="this account cannot use the pool")
    result.run("403 skips", "pod", create("p-403", [C, D]))
    sim.admin.inject_fault(POSTS, "status", method="POST", status=429, detail="slow down", retry_after=1)
    result.run("429 backs off and resumes", "pod", create("p-429", [C, D]))
    sim.admin.inject_fault(r"^/v2/catalog/gpus$", "status", method="GET", status=503, detail="catalog down")
    result.run("failed catalog read keeps the order", "pod", create("p-nocatalog", [A, C]))
    sim.admin.inject_fault(POSTS, "stock_out", method="POST", count=2)
    result.run("every candidate 400", "pod", create("p-none", [C, D]))
    sim.admin.inject_fault(POSTS, "status", method="POST", status=402, detail="insufficient balance")
    result.run("402 stops", "pod", create("p-402", [C, D]))
    sim.admin.inject_fault(POSTS, "status", method="POST", status=422, detail="Request validation failed.")
    result.run("422 never retried", "pod", create("p-422", [C, D]))
    sim.admin.inject_fault(POSTS, "error_after_create", method="POST", status=500)
    result.run("5xx looks the pod up by name", "pod", create("p-5xx", [C, D]))
    result.run("CUDA constraints exclusive", "pod",
               create("p-cuda", [C], allowed_cuda_versions=["12.8"], min_cuda_version="12.4"))
    result.run("CUDA floor placed", "pod", create("p-cuda", [C], min_cuda_version="12.4"))
    refusals = {"every candidate 400", "402 stops", "422 never retried", "CUDA constraints exclusive"}
    assert result.failed() <= refusals

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

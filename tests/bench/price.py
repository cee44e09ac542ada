"""The price row of ``make bench`` (section ``price``, issue 33): the hourly price of the pod each approach lands on
when the first choice is out of stock.

The user wants any NVIDIA GPU with 48 GB or more and lists the types in the order they think of them:
RTX A6000, L40S, A100 80GB PCIe, A40 (an order that is not the price order). The A6000 is sold out. The naive
loop (``uri`` per type until a 201) and ``gpu_type_ids`` walk the user's order; ``gpu_requirements``
(``min_memory_gb: 48``, ``manufacturer: NVIDIA``) takes the cheapest match in stock.
"""

from __future__ import annotations

from typing import Any

import httpx
from benchlib import IMAGE, api_requests, run_playbook

PREFERENCE = ["NVIDIA RTX A6000", "NVIDIA L40S", "NVIDIA A100 80GB PCIe", "NVIDIA A40"]
SOLD_OUT = PREFERENCE[:1]
REQUIREMENTS = {"min_memory_gb": 48, "manufacturer": "NVIDIA"}
APPROACHES = {
    "naive_loop": ("price_naive.yml", {"bench_gpus": PREFERENCE}),
    "gpu_type_ids": ("price_collection.yml", {"bench_gpus": PREFERENCE}),
    "gpu_requirements": ("price_collection.yml", {"bench_requirements": REQUIREMENTS}),
}


def _landed(sim, name: str) -> dict[str, Any] | None:
    answer = httpx.get(f"{sim.urls['api_v2']}/pods", headers={"Authorization": f"Bearer {sim.api_key}"}, timeout=30)
    answer.raise_for_status()
    return next((pod for pod in answer.json()["pods"] if pod.get("name") == name), None)


def price_bench(sim, log) -> list[dict[str, Any]]:
    rows = []
    for approach, (playbook, extra) in APPROACHES.items():
        sim.admin.reset()
        sim.admin.configure(out_of_stock_gpu_types=SOLD_OUT)
        name = f"price-{approach.replace('_', '')}"
        log(f"price {approach}: first choice {SOLD_OUT[0]} out of stock")
        run = run_playbook(sim, playbook, {"bench_name": name, "bench_image": IMAGE, **extra})
        pod = _landed(sim, name)
        posts = [e for e in api_requests(sim) if e["method"] == "POST" and e["path"].endswith("/pods")]
        rows.append({
            "approach": approach,
            "ok": run.rc == 0 and pod is not None,
            "gpu_type": (pod or {}).get("gpu", {}).get("id", "") if pod else "",
            "price_per_hr": (pod or {}).get("cost", ""),
            "posts": len(posts),
            "post_statuses": " ".join(str(e["status"]) for e in posts),
            "command": run.command,
        })
        log(f"  {rows[-1]}")
    return rows

# A team's typed models: dataclasses with factories, enums, typing everywhere, match on both.
from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar, Dict, List, Optional

from locust import HttpUser, constant, task


class Plan(enum.Enum):
    FREE = "free"
    PRO = "pro"


@dataclass
class Order:
    sku: str
    qty: int = 1
    plan: Plan = Plan.FREE
    tags: List[str] = field(default_factory=list)
    meta: Optional[Dict[str, Any]] = None
    KIND: ClassVar[str] = "order"

    def total(self) -> int:
        return self.qty * (10 if self.plan is Plan.PRO else 5)


def route(order: Order) -> str:
    match order.plan:
        case Plan.PRO if order.qty > 1:
            return "bulk pro"
        case Plan.PRO:
            return "pro"
        case _:
            return "free"


class Typed(HttpUser):
    wait_time = constant(0.25)
    count: int = 0

    @task
    def place(self) -> None:
        self.count += 1
        order = Order(sku=f"s{self.count % 3}", qty=self.count % 2 + 1, plan=Plan("pro" if self.count % 2 else "free"))
        order.tags.append(order.plan.name.lower())
        body: Dict[str, Any] = asdict(order)
        body["plan"] = order.plan.value
        self.client.post("/echo", json=body, name=f"{route(order)} {order.total()} {Order.KIND}")

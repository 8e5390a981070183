# args: -u 4 -r 4 -t 8s
# A payload as a dataclass and a response routed by a match statement (Python 3.10).
from dataclasses import dataclass, field, asdict

from locust import HttpUser, constant, task


@dataclass
class Order:
    sku: str
    qty: int = 1
    notes: list = field(default_factory=list)


class Buyer(HttpUser):
    wait_time = constant(0.5)
    n = 0

    @task
    def order(self):
        self.n += 1
        o = Order("abc", qty=self.n % 3)
        r = self.client.post("/echo", json=asdict(o), name="order")
        match r.json():
            case {"qty": 0}:
                self.client.get("/", name="empty")
            case {"qty": 1 | 2, "sku": sku}:
                self.client.get(f"/fib/{len(sku)}", name="filled")
            case _:
                self.client.get("/nope", name="other")

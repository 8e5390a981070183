# Test data as dataclasses and an enum, a module-level helper class, a class attribute shared by users.
import json
from dataclasses import dataclass, field
from enum import Enum

from locust import HttpUser, constant, task


class Kind(Enum):
    BOOK = "book"
    PEN = "pen"


@dataclass
class Item:
    sku: str
    kind: Kind
    qty: int = 1
    tags: list = field(default_factory=list)

    def payload(self):
        return {"sku": self.sku, "kind": self.kind.value, "qty": self.qty, "tags": self.tags}


class Catalog:
    def __init__(self, items):
        self.items = items
        self.served = 0

    def next(self):
        item = self.items[self.served % len(self.items)]
        self.served += 1
        return item


class Shopper(HttpUser):
    wait_time = constant(0.2)
    catalog = Catalog([Item("b-1", Kind.BOOK, 2, ["new"]), Item("p-9", Kind.PEN)])

    @task
    def add(self):
        item = self.catalog.next()
        with self.client.post("/echo", json=item.payload(), name=f"add {item.kind.name.lower()}",
                              catch_response=True) as r:
            if r.json()["kind"] != item.kind.value:
                r.failure("kind changed")

    @task
    def stock(self):
        body = json.dumps({k.name: k.value for k in Kind}, sort_keys=True)
        self.client.post("/echo", data=body, headers={"content-type": "application/json"}, name="stock")

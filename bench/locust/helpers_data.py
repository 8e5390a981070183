# args: -u 60 -r 60 -t 15s
# Module-level helpers teams write: random names, comprehensions, json, string and uuid.
import json
import random
import string
import uuid
from locust import HttpUser, task, constant_throughput


def random_name(length=8):
    return "".join(random.choice(string.ascii_lowercase) for _ in range(length))


PRODUCTS = [{"id": i, "price": round(i * 1.5, 2)} for i in range(1, 21)]


class DataUser(HttpUser):
    wait_time = constant_throughput(2)

    def on_start(self):
        self.cart = []

    @task(3)
    def add(self):
        product = random.choice(PRODUCTS)
        self.cart.append(product["id"])
        body = json.dumps({"name": random_name(), "id": str(uuid.uuid4()), "cart": self.cart[-3:]})
        self.client.post("/echo", data=body, headers={"content-type": "application/json"}, name="add")

    @task(1)
    def total(self):
        prices = {p["id"]: p["price"] for p in PRODUCTS}
        amount = sum(prices.get(i, 0) for i in self.cart)
        self.client.get(f"/validate?id={len(self.cart)}&name=total{int(amount)}", name="total")

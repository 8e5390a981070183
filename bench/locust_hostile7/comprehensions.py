# A search team builds its queries with comprehensions, enumerate, zip, sorted and unpacking.
import random

from locust import HttpUser, between, task

CATALOG = [{"id": i, "price": round(i * 1.5, 2), "tags": ["a", "b"][: i % 3]} for i in range(1, 13)]


class Searcher(HttpUser):
    wait_time = between(0.05, 0.1)

    def on_start(self):
        self.cheap = {p["id"]: p["price"] for p in CATALOG if p["price"] < 10}
        self.tags = {t for p in CATALOG for t in p["tags"]}
        first, *middle, last = sorted(CATALOG, key=lambda p: -p["price"])
        self.bounds = (first["id"], last["id"])
        self.middle = len(middle)

    @task(2)
    def cheapest(self):
        ids = [i for i, price in sorted(self.cheap.items(), key=lambda kv: (kv[1], kv[0]))][:3]
        for rank, pid in enumerate(ids, start=1):
            self.client.get(f"/fib/{pid}", name=f"cheap #{rank}")

    @task
    def pairs(self):
        hi, lo = self.bounds
        for a, b in zip(range(lo, hi, 4), ["x", "y", "z"]):
            self.client.get(f"/validate?id={a}&name={b}", name="pair")

    @task
    def tagged(self):
        if len(self.tags) == 2 and self.middle == 10:
            self.client.get("/json", name="tags ok")
        else:
            self.client.get("/nonexistent", name="tags wrong")

# args: -u 20 -r 10 -t 12s
# A catalogue team's data beside the script: products read once from products.json, one picked at random
# each task, requests paced to two a second per user.
import json
import os
import random

from locust import FastHttpUser, constant_throughput, task

with open(os.path.join(os.path.dirname(__file__), "products.json")) as f:
    PRODUCTS = json.load(f)["products"]


class Catalogue(FastHttpUser):
    wait_time = constant_throughput(2)

    @task(3)
    def view(self):
        product = random.choice(PRODUCTS)
        self.client.get(f"/fib/{product['id'] + 10}", name="/product/[id]")

    @task(1)
    def search(self):
        term = random.choice([p["name"] for p in PRODUCTS])
        self.client.get("/validate", params={"id": len(term), "name": term}, name="search")

# Products read with csv.DictReader from a file beside the locustfile, as a data team keeps them.
import csv
import os
import random

from locust import HttpUser, constant, task

with open(os.path.join(os.path.dirname(__file__), "products.csv"), newline="") as f:
    PRODUCTS = [row for row in csv.DictReader(f) if row["active"] == "yes"]


class Buyer(HttpUser):
    wait_time = constant(0.1)

    @task
    def view(self):
        p = random.choice(PRODUCTS)
        self.client.get(f"/fib/{p['n']}", name=f"product {p['sku']}")

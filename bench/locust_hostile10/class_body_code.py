# A class body that runs code: a with block reading a CSV, a loop filling a list, attributes from attributes.
import csv

from locust import HttpUser, constant, task


class Catalog(HttpUser):
    wait_time = constant(0.25)
    base = "/json"
    skus = []
    paths = []
    with open("cases.csv", newline="") as handle:
        for row in csv.DictReader(handle):
            skus.append(row["sku"])
            paths.append(f"{base}?sku={row['sku']}")
    first = skus[0] if skus else None

    @task
    def each(self):
        for path in self.paths:
            self.client.get(path, name=f"sku {path[-2:]}")
        self.client.get("/", name=f"first {self.first} of {len(self.skus)}")

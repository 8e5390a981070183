# name= groups dynamic URLs (ids in the path, params= in the query); one request is left unnamed.
import random

from locust import HttpUser, constant, task


class Catalog(HttpUser):
    wait_time = constant(0.1)

    @task(3)
    def product(self):
        pid = random.randint(5, 15)
        self.client.get(f"/fib/{pid}", name="/fib/[n]")

    @task(2)
    def search(self):
        self.client.get("/validate", params={"id": random.randint(1, 99), "name": "alice"}, name="/validate?[q]")

    @task
    def update(self):
        self.client.request("POST", "/echo", data=b"patch", name="echo raw")

    @task
    def home(self):
        self.client.get("/?from=catalog")

# args: -u 60 -r 60 -t 15s
# A JSON API mix by weight, with ids drawn at random and named as one endpoint.
import random
from locust import HttpUser, task, constant


class ApiUser(HttpUser):
    wait_time = constant(0.5)

    @task(10)
    def read(self):
        self.client.get("/json")

    @task(5)
    def fib(self):
        n = random.randint(5, 15)
        self.client.get(f"/fib/{n}", name="/fib/[n]")

    @task(1)
    def echo(self):
        payload = {"id": random.randint(1, 1000), "tags": ["a", "b"]}
        self.client.post("/echo", json=payload)

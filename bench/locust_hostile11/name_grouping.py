# name= groups dynamic URLs; the same name under two methods is two rows; params= under one name.
import random

from locust import HttpUser, constant, task


class Grouped(HttpUser):
    wait_time = constant(0.2)

    @task
    def by_id(self):
        self.client.get(f"/fib/{random.randint(1, 20)}", name="/fib/[n]")

    @task
    def two_methods(self):
        self.client.post("/echo", data="x", name="/item")
        self.client.get("/json", name="/item")

    @task
    def params(self):
        self.client.get("/validate", params={"id": random.randint(1, 9), "name": "alice"}, name="/validate?[q]")

    @task
    def unnamed(self):
        self.client.get("/validate", params={"id": 1, "name": "bobby"})

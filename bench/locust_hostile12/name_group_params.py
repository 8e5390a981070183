# name= groups dynamic paths and params; the same name under GET and POST; a name with spaces and unicode.
import random

from locust import HttpUser, constant, task


class Grouped(HttpUser):
    wait_time = constant(0.1)

    @task
    def grouped(self):
        n = random.randint(1, 20)
        self.client.get(f"/fib/{n}", name="/fib/[n]")
        self.client.get("/validate", params={"id": n, "name": "alice"}, name="/validate?[id]")
        self.client.post("/echo", json={"n": n}, name="item")
        self.client.get("/json", name="item")
        self.client.get("/", name="café ünïcode name")

# Two user classes by weight at -u 8; a third with fixed_count 1.
from locust import HttpUser, constant, task


class Reader(HttpUser):
    weight = 3
    wait_time = constant(0.3)

    @task
    def read(self):
        self.client.get("/json", name="reader")


class Writer(HttpUser):
    weight = 1
    wait_time = constant(0.3)

    @task
    def write(self):
        self.client.post("/echo", data="x", name="writer")


class Admin(HttpUser):
    fixed_count = 1
    wait_time = constant(0.3)

    @task
    def audit(self):
        self.client.get("/fib/5", name="admin")

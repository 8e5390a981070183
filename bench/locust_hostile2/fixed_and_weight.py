# One fixed monitor user, the rest by weight.
from locust import HttpUser, between, constant, task


class Monitor(HttpUser):
    fixed_count = 1
    wait_time = constant(0.25)

    @task
    def health(self):
        self.client.get("/", name="health")


class Reader(HttpUser):
    weight = 3
    wait_time = between(0.3, 0.5)

    @task
    def read(self):
        self.client.get("/json", name="read")


class Writer(HttpUser):
    weight = 1
    wait_time = between(0.3, 0.5)

    @task
    def write(self):
        self.client.post("/echo", json={"n": 1}, name="write")

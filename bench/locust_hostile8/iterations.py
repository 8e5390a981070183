# A smoke test: each user runs a fixed number of task iterations (-i), then the run ends.
from locust import HttpUser, constant, task


class Smoke(HttpUser):
    wait_time = constant(0.05)

    @task
    def ping(self):
        self.client.get("/json", name="ping")

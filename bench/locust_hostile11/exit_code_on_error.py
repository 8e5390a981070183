# --exit-code-on-error 3: a run with failures exits 3 on Locust.
from locust import HttpUser, constant, task


class Failing(HttpUser):
    wait_time = constant(0.3)

    @task
    def ok(self):
        self.client.get("/json")

    @task
    def missing(self):
        self.client.get("/gone")

# --exit-code-on-error 0: failures, yet the run exits 0 on Locust.
from locust import HttpUser, constant, task


class Failing(HttpUser):
    wait_time = constant(0.3)

    @task
    def ok(self):
        self.client.get("/json")

    @task
    def missing(self):
        self.client.get("/gone")

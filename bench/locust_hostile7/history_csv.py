# A CI job's file run with every CSV flag: --csv with --csv-full-history, two names, one failing.
from locust import HttpUser, constant, task


class Ci(HttpUser):
    wait_time = constant(0.1)

    @task(3)
    def ok(self):
        self.client.get("/json", name="ok")

    @task
    def missing(self):
        self.client.get("/nonexistent", name="missing")

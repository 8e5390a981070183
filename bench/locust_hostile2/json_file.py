# Stats to a JSON file and the CSVs (--json-file), as a CI artifact step collects them.
from locust import HttpUser, constant, task


class Api(HttpUser):
    wait_time = constant(0.4)

    @task(3)
    def ok(self):
        self.client.get("/json", name="ok")

    @task
    def slow(self):
        self.client.get("/sleep?ms=50", name="slow")

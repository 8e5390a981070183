# args: -u 4 -r 4 -t 6s --json
# CI reading the run's stats as JSON from stdout (--json) rather than the table.
from locust import HttpUser, constant, task


class Api(HttpUser):
    wait_time = constant(0.5)

    @task(3)
    def ok(self):
        self.client.get("/json", name="ok")

    @task
    def missing(self):
        self.client.get("/static/none.png", name="missing")

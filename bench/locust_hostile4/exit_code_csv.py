# A CI job: --exit-code-on-error 2 with --csv and --csv-full-history, one name failing by 400s.
from locust import HttpUser, between, task


class Job(HttpUser):
    wait_time = between(0.1, 0.3)

    @task(3)
    def ok(self):
        self.client.get("/json", name="ok")

    @task
    def invalid(self):
        self.client.get("/validate?id=1&name=ab", name="invalid")

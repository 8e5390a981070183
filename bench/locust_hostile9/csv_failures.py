# A CI's run: --headless -t 10s --csv, failures of three kinds, the exit code Locust gives.
from locust import HttpUser, between, task


class Ci(HttpUser):
    wait_time = between(0.1, 0.3)

    @task(3)
    def ok(self):
        self.client.get("/json", name="ok")

    @task
    def bad(self):
        self.client.get("/validate?id=x", name="bad request")

    @task
    def gone(self):
        with self.client.get("/missing", catch_response=True, name="gone") as r:
            if r.status_code == 404:
                r.success()

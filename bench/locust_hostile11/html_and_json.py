# --html and --json-file side by side with --csv: the three outputs of one run.
from locust import FastHttpUser, between, task


class Reporter(FastHttpUser):
    wait_time = between(0.2, 0.4)

    @task(2)
    def page(self):
        self.client.get("/")

    @task
    def bad(self):
        with self.client.get("/validate?id=x&name=short", catch_response=True) as r:
            if r.status_code == 400:
                r.failure(f"rejected: {r.json()['error']}")

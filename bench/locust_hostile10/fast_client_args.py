# A FastHttpUser tuned as a team tunes its client: concurrency, timeouts, insecure TLS, its own headers.
from locust import FastHttpUser, between, task


class Api(FastHttpUser):
    wait_time = between(0.1, 0.3)
    concurrency = 4
    network_timeout = 5.0
    connection_timeout = 2.0
    insecure = True
    max_retries = 1
    default_headers = {"X-Team": "checkout"}

    @task(3)
    def catalog(self):
        with self.client.get("/json", headers={"Accept": "application/json"}, catch_response=True) as r:
            if r.status_code != 200:
                r.failure(f"status {r.status_code}")

    @task
    def missing(self):
        self.client.get("/nonexistent", name="missing")

    @task
    def slow(self):
        self.client.get("/sleep?ms=100", name="slow")

# A checkout team's checks: response.elapsed, response.history, raise_for_status() inside catch_response.
from locust import HttpUser, constant, task
from requests.exceptions import HTTPError


class Checkout(HttpUser):
    wait_time = constant(0.1)

    @task(2)
    def fast_enough(self):
        with self.client.get("/sleep?ms=20", name="slow page", catch_response=True) as r:
            if r.elapsed.total_seconds() > 5:
                r.failure(f"took {r.elapsed.total_seconds():.3f}s")
            elif r.history:
                r.failure("redirected")

    @task
    def status_raises(self):
        with self.client.get("/error/1", name="broken", catch_response=True) as r:
            try:
                r.raise_for_status()
            except HTTPError as e:
                r.failure(f"status {e.response.status_code}")

    @task
    def status_ok(self):
        with self.client.get("/json", name="fine", catch_response=True) as r:
            r.raise_for_status()
            r.success()

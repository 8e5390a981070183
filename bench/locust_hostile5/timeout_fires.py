# A request timeout that fires (a failure on both), and redirects not followed.
from locust import HttpUser, constant, task


class Impatient(HttpUser):
    wait_time = constant(0.2)

    @task
    def slow(self):
        self.client.get("/sleep?ms=400", timeout=0.1, name="slow")

    @task(2)
    def fast(self):
        self.client.get("/sleep?ms=1", timeout=5, name="fast", allow_redirects=False)

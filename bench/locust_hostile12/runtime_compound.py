# -t 0h0m3s: a compound time string with zero parts.
from locust import HttpUser, constant, task


class Timed(HttpUser):
    wait_time = constant(0.2)

    @task
    def tick(self):
        self.client.get("/", name="compound")

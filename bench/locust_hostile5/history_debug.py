# --csv-full-history and --loglevel DEBUG, two names failing at different rates.
import random

from locust import HttpUser, constant, task


class Flaky(HttpUser):
    wait_time = constant(0.2)

    @task
    def sometimes(self):
        with self.client.get("/json", name="sometimes", catch_response=True) as r:
            if random.random() < 0.3:
                r.failure("unlucky")

    @task
    def always(self):
        self.client.get("/gone", name="always")

# -t 3 (a bare number: seconds, as Locust's parse_timespan reads it).
from locust import HttpUser, constant, task


class Timed(HttpUser):
    wait_time = constant(0.2)

    @task
    def tick(self):
        self.client.get("/", name="bare seconds")

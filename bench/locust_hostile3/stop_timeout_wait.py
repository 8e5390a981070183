# --stop-timeout with users mid-task at the end: a slow request finishes before they stop.
from locust import HttpUser, constant, task


class Slow(HttpUser):
    wait_time = constant(0.5)

    @task
    def slow(self):
        self.client.get("/sleep?ms=800", name="slow")
        self.client.get("/json", name="after slow")

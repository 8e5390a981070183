# Spawned one a second with --reset-stats: what was sent while spawning is not counted.
from locust import HttpUser, constant, task


class Steady(HttpUser):
    wait_time = constant(0.25)

    def on_start(self):
        self.client.get("/json", name="warm up")

    @task
    def read(self):
        self.client.get("/", name="read")

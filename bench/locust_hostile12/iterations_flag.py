# --iterations 5 (locust-plugins' flag, not Locust's): refused by Locust's argument parser.
from locust import HttpUser, constant, task


class Counted(HttpUser):
    wait_time = constant(0.1)

    @task
    def tick(self):
        self.client.get("/", name="tick")

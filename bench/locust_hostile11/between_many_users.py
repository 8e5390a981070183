# between(0.05, 0.1) at 12 users spawned 4 a second.
from locust import HttpUser, between, task


class Busy(HttpUser):
    wait_time = between(0.05, 0.1)

    @task
    def ping(self):
        self.client.get("/", name="ping")

    @task
    def data(self):
        self.client.get("/json", name="data")

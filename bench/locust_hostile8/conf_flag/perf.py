# The run's users, rate and time live in a conf file CI passes with --config.
from locust import HttpUser, constant, task


class Visitor(HttpUser):
    wait_time = constant(0.2)

    @task(2)
    def home(self):
        self.client.get("/", name="home")

    @task
    def data(self):
        self.client.get("/json", name="data")

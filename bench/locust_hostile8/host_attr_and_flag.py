# A class with its own host (the team's default) run with -H in CI: -H wins for every class.
from locust import HttpUser, constant, task


class Site(HttpUser):
    host = "http://127.0.0.1:9"
    wait_time = constant(0.2)

    @task
    def home(self):
        self.client.get("/", name="home")


class Api(HttpUser):
    wait_time = constant(0.2)

    @task
    def data(self):
        self.client.get("/json", name="data")

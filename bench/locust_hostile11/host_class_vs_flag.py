# Two classes with hosts of their own (one with a path) under -H: every request goes to -H's host.
from locust import HttpUser, constant, task


class Api(HttpUser):
    host = "http://127.0.0.1:9/api"
    wait_time = constant(0.3)

    @task
    def j(self):
        self.client.get("/json", name="api json")
        assert self.host == self.environment.host


class Site(HttpUser):
    host = "http://localhost:9"
    wait_time = constant(0.3)

    @task
    def home(self):
        self.client.get("/", name="site home")

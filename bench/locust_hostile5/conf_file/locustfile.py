# Users, rate and run time come from locust.conf (--config), not the command line.
from locust import HttpUser, between, task


class Visitor(HttpUser):
    wait_time = between(0.1, 0.3)

    @task(3)
    def home(self):
        self.client.get("/", name="home")

    @task
    def detail(self):
        self.client.get("/json", name="detail")

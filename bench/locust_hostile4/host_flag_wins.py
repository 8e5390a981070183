# The class names a host that is not running; -H (given by the command line) wins, as on Locust.
from locust import HttpUser, constant, task


class Site(HttpUser):
    host = "http://127.0.0.1:9"
    wait_time = constant(0.2)

    @task
    def index(self):
        self.client.get("/", name="index")

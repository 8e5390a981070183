# --html with --csv beside it: both written, the counts the same.
from locust import HttpUser, constant, task


class Api(HttpUser):
    wait_time = constant(0.2)

    @task
    def home(self):
        self.client.get("/", name="home")

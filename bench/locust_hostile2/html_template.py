# --html with Locust's {u} {r} {t} tags and --processes from a CI template.
from locust import HttpUser, constant, task


class Api(HttpUser):
    wait_time = constant(0.4)

    @task
    def home(self):
        self.client.get("/", name="home")

# --exit-code-on-error 7 where no request fails but a task raises: Locust's exit code for errors only.
from locust import HttpUser, constant, task


class Raiser(HttpUser):
    wait_time = constant(0.3)

    @task
    def ok(self):
        self.client.get("/json")

    @task
    def boom(self):
        self.client.get("/")
        {}["missing"]

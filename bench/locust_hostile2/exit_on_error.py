# --exit-code-on-error 3: the pipeline tells a failed run from a crashed one by its code.
from locust import HttpUser, constant, task


class Api(HttpUser):
    wait_time = constant(0.3)

    @task(5)
    def ok(self):
        self.client.get("/json", name="ok")

    @task
    def bad(self):
        self.client.get("/validate?id=x", name="bad input")

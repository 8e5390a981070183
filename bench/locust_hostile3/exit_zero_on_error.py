# --exit-code-on-error 0: failures counted, the exit code 0.
from locust import HttpUser, constant, task


class Api(HttpUser):
    wait_time = constant(0.2)

    @task
    def ok(self):
        self.client.get("/json", name="ok")

    @task
    def gone(self):
        self.client.get("/nonexistent", name="gone")

# Warm-up excluded with --reset-stats; a failing endpoint makes the run exit with CI's own code.
from locust import HttpUser, constant, task


class Api(HttpUser):
    wait_time = constant(0.2)

    def on_start(self):
        self.client.get("/", name="warm up")

    @task(4)
    def ok(self):
        self.client.get("/json", name="ok")

    @task
    def broken(self):
        self.client.get("/error/1", name="broken")

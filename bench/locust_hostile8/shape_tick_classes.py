# A release-gate shape: each tick names the user classes of its stage; None ends the run.
from locust import HttpUser, LoadTestShape, constant, task


class Browser(HttpUser):
    wait_time = constant(0.25)

    @task
    def page(self):
        self.client.get("/", name="browser page")


class ApiClient(HttpUser):
    wait_time = constant(0.25)

    @task
    def call(self):
        self.client.get("/json", name="api call")


class GateShape(LoadTestShape):
    stages = [
        {"until": 2, "users": 2, "rate": 2, "classes": [Browser]},
        {"until": 4, "users": 4, "rate": 4, "classes": [Browser, ApiClient]},
        {"until": 6, "users": 2, "rate": 4, "classes": [ApiClient]},
    ]

    def tick(self):
        run_time = self.get_run_time()
        for stage in self.stages:
            if run_time < stage["until"]:
                return stage["users"], stage["rate"], stage["classes"]
        return None

# Locust's documented stages shape: a list of dicts with duration, users and spawn_rate, ending at the last.
from locust import HttpUser, LoadTestShape, constant, task


class Reader(HttpUser):
    wait_time = constant(0.2)

    @task
    def read(self):
        self.client.get("/json", name="read")


class StagesShape(LoadTestShape):
    stages = [
        {"duration": 3, "users": 2, "spawn_rate": 2},
        {"duration": 6, "users": 6, "spawn_rate": 6},
        {"duration": 9, "users": 3, "spawn_rate": 3},
    ]

    def tick(self):
        run_time = self.get_run_time()
        for stage in self.stages:
            if run_time < stage["duration"]:
                return stage["users"], stage["spawn_rate"]
        return None

# A shape whose tick() names the classes each stage runs: readers first, then writers join.
from locust import HttpUser, LoadTestShape, constant, task


class Reader(HttpUser):
    wait_time = constant(0.5)

    @task
    def read(self):
        self.client.get("/json", name="read")


class Writer(HttpUser):
    wait_time = constant(0.5)

    @task
    def write(self):
        self.client.post("/echo", json={"op": "write"}, name="write")


class TwoPhases(LoadTestShape):
    stages = [
        {"duration": 3, "users": 2, "spawn_rate": 2, "user_classes": [Reader]},
        {"duration": 6, "users": 4, "spawn_rate": 4, "user_classes": [Reader, Writer]},
    ]

    def tick(self):
        run_time = self.get_run_time()
        for stage in self.stages:
            if run_time < stage["duration"]:
                return stage["users"], stage["spawn_rate"], stage["user_classes"]
        return None

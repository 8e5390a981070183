# A LoadTestShape of stages by run time, ending the run when it returns None.
from locust import HttpUser, LoadTestShape, constant, task


class Api(HttpUser):
    wait_time = constant(0.25)

    @task
    def hit(self):
        self.client.get("/json", name="hit")


class Stages(LoadTestShape):
    stages = [
        {"duration": 2, "users": 2, "spawn_rate": 2},
        {"duration": 4, "users": 4, "spawn_rate": 4},
        {"duration": 5, "users": 1, "spawn_rate": 4},
    ]

    def tick(self):
        run_time = self.get_run_time()
        for stage in self.stages:
            if run_time < stage["duration"]:
                return (stage["users"], stage["spawn_rate"])
        return None

# args: -t 30s
# A release team's stages (a warm-up, a peak, a cool-down), as Locust's docs write them.
from locust import FastHttpUser, LoadTestShape, constant, task


class Api(FastHttpUser):
    wait_time = constant(0.5)

    @task
    def fib(self):
        self.client.get("/fib/15", name="/fib/[n]")

    @task
    def echo(self):
        self.client.post("/echo", json={"hello": "world"})


class StagesShape(LoadTestShape):
    stages = [
        {"duration": 4, "users": 10, "spawn_rate": 10},
        {"duration": 9, "users": 30, "spawn_rate": 10},
        {"duration": 13, "users": 5, "spawn_rate": 10},
    ]

    def tick(self):
        run_time = self.get_run_time()
        for stage in self.stages:
            if run_time < stage["duration"]:
                tick_data = (stage["users"], stage["spawn_rate"])
                return tick_data
        return None

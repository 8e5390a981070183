# args: -t 30s
# A capacity team's step load: 5 more users every 3 s up to 20, held, then the shape ends the test itself.
from locust import HttpUser, LoadTestShape, between, task


class Browser(HttpUser):
    wait_time = between(0.4, 0.6)

    @task(3)
    def home(self):
        self.client.get("/")

    @task
    def data(self):
        self.client.get("/json", name="data")


class StepLoadShape(LoadTestShape):
    step_time = 3
    step_load = 5
    spawn_rate = 5
    time_limit = 14

    def tick(self):
        run_time = self.get_run_time()
        if run_time > self.time_limit:
            return None
        current_step = min(run_time // self.step_time + 1, 4)
        return (current_step * self.step_load, self.spawn_rate)

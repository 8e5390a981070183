# A data-load job: users share a budget of calls and the first to use it up ends the run.
from locust import HttpUser, constant, task

BUDGET = 40


class Loader(HttpUser):
    wait_time = constant(0.05)
    sent = 0

    @task
    def load(self):
        Loader.sent += 1
        self.client.post("/echo", json={"n": Loader.sent}, name="load")
        if Loader.sent >= BUDGET:
            self.environment.runner.quit()

# A batch team's long tasks: --run-time ends them and --stop-timeout lets each finish its steps.
import time

from locust import HttpUser, constant, task


class Batch(HttpUser):
    wait_time = constant(0.5)

    @task
    def steps(self):
        for i in range(3):
            self.client.get(f"/sleep?ms=300", name=f"step {i + 1}")
        time.sleep(0.2)
        self.client.get("/json", name="commit")

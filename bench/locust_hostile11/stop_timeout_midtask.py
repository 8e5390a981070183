# -t ends in the middle of a task of three steps with sleeps; --stop-timeout lets the task finish.
import time

from locust import HttpUser, constant, task


class Steps(HttpUser):
    wait_time = constant(0.1)

    @task
    def flow(self):
        self.client.get("/", name="step 1")
        time.sleep(0.7)
        self.client.get("/json", name="step 2")
        time.sleep(0.7)
        self.client.get("/", name="step 3")

    def on_stop(self):
        self.client.get("/", name="on_stop")

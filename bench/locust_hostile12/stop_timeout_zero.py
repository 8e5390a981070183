# No --stop-timeout (0): a user is killed mid-task at -t; on_stop still runs.
from locust import HttpUser, constant, task


class Killed(HttpUser):
    wait_time = constant(0)

    @task
    def steps(self):
        for i in range(4):
            self.client.get("/sleep?ms=300", name=f"step {i + 1}")

    def on_stop(self):
        self.client.get("/", name="on_stop")

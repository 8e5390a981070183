# --stop-timeout 2 with a task of four 300 ms requests: users finish the task they are in at -t.
from locust import HttpUser, constant, task


class Steps(HttpUser):
    wait_time = constant(0)

    @task
    def steps(self):
        for i in range(4):
            self.client.get("/sleep?ms=300", name=f"step {i + 1}")

    def on_stop(self):
        self.client.get("/", name="on_stop")

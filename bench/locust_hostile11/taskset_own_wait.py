# A TaskSet with its own wait_time, left by interrupt() after a count; the user's wait between entries.
from locust import HttpUser, TaskSet, constant, task


class Burst(TaskSet):
    wait_time = constant(0.05)

    def on_start(self):
        self.left = 4

    @task
    def hit(self):
        self.client.get("/json", name="burst")
        self.left -= 1
        if self.left == 0:
            self.interrupt()

    def on_stop(self):
        self.client.get("/", name="burst done")


class Bursty(HttpUser):
    wait_time = constant(0.8)
    tasks = [Burst]

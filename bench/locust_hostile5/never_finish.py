# Users that never finish a task on their own: each loops until --run-time and --stop-timeout end it.
import time

from locust import HttpUser, constant, task


class Poller(HttpUser):
    wait_time = constant(0)

    @task
    def poll(self):
        while True:
            self.client.get("/sleep?ms=100", name="poll")
            time.sleep(0.2)

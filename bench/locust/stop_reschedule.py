# args: -u 10 -r 10 -t 8s
# Each user stops after its quota (StopUser); a task skips its wait when the page is not ready (RescheduleTask).
import random

from locust import HttpUser, constant, task
from locust.exception import RescheduleTask, StopUser


class Quota(HttpUser):
    wait_time = constant(0.2)

    def on_start(self):
        self.done = 0

    @task
    def page(self):
        self.done += 1
        if self.done > 15:
            raise StopUser()
        self.client.get("/json", name="quota page")
        if random.random() < 0.3:
            self.client.get("/", name="retry soon")
            raise RescheduleTask()

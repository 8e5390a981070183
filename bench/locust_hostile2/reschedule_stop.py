# RescheduleTask skips the rest of a task; StopUser ends a user after its quota.
import random

from locust import HttpUser, constant, task
from locust.exception import RescheduleTask, StopUser


class Quota(HttpUser):
    wait_time = constant(0.2)

    def on_start(self):
        self.done = 0

    @task
    def work(self):
        self.done += 1
        if self.done > 12:
            raise StopUser()
        r = self.client.get("/json", name="work")
        if random.random() < 0.5:
            raise RescheduleTask()
        self.client.get("/fib/3", name="work followup")

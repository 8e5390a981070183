# StopUser, RescheduleTask and InterruptTaskSet raised where teams raise them.
import random

from locust import HttpUser, TaskSet, constant, task
from locust.exception import InterruptTaskSet, RescheduleTask, StopUser


class Checkout(TaskSet):
    @task
    def pay(self):
        query = "id=3&name=alice" if random.random() < 0.7 else "id=x"
        r = self.client.get(f"/validate?{query}", name="pay")
        if r.status_code != 200:
            raise InterruptTaskSet(reschedule=False)
        if random.random() < 0.5:
            raise InterruptTaskSet()
        self.client.get("/json", name="receipt")


class Buyer(HttpUser):
    wait_time = constant(0.1)
    tasks = {Checkout: 1}

    def on_start(self):
        self.budget = 15

    @task
    def browse(self):
        self.budget -= 1
        if self.budget <= 0:
            raise StopUser()
        if random.random() < 0.3:
            raise RescheduleTask()
        self.client.get("/", name="browse")

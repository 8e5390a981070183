# Users that give up: StopUser after a few orders, RescheduleTask when there is nothing to do.
import random

from locust import HttpUser, constant, task
from locust.exception import RescheduleTask, StopUser


class Customer(HttpUser):
    wait_time = constant(0.1)

    def on_start(self):
        self.orders = 0

    @task(3)
    def order(self):
        self.client.post("/echo", json={"order": self.orders}, name="order")
        self.orders += 1
        if self.orders >= 5:
            self.client.get("/", name="goodbye")
            raise StopUser()

    @task
    def maybe(self):
        if random.random() < 2:
            raise RescheduleTask()
        self.client.get("/json", name="never")

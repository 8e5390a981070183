# constant_throughput(2) with a task that takes 0.2 to 0.6 s and one slower than the period.
import random

from locust import HttpUser, constant_throughput, task


class Paced(HttpUser):
    wait_time = constant_throughput(2)

    @task(3)
    def quick(self):
        self.client.get(f"/sleep?ms={random.choice([200, 300, 400])}", name="quick")

    @task
    def slow(self):
        self.client.get("/sleep?ms=700", name="slow")

# args: -u 20 -r 20 -t 12s
# Waits in fractions of a second, one user class with its own wait_time method.
import random

from locust import HttpUser, between, task


class Browser(HttpUser):
    wait_time = between(0.15, 0.35)

    @task(2)
    def home(self):
        self.client.get("/")

    @task
    def fib(self):
        self.client.get(f"/fib/{random.choice([5, 8, 13])}", name="/fib/[n]")


class Poller(HttpUser):
    weight = 1

    def wait_time(self):
        self.polls = getattr(self, "polls", 0) + 1
        return 0.5 if self.polls % 2 else 0.25

    @task
    def poll(self):
        self.client.get("/json", name="poll")

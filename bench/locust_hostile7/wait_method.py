# wait_time as a method of the user's own, and on_stop sending its logout.
import random

from locust import HttpUser, task


class Visitor(HttpUser):
    def wait_time(self):
        return 0.05 + random.random() * 0.05

    def on_start(self):
        self.client.get("/", name="arrive")

    @task
    def page(self):
        self.client.get("/json", name="page")

    def on_stop(self):
        self.client.get("/fib/3", name="leave")

# Settings from pyproject.toml's [tool.locust]: quoted run-time, a TOML list, csv.
from locust import HttpUser, constant, tag, task


class Shop(HttpUser):
    wait_time = constant(0.3)

    @task(2)
    def home(self):
        self.client.get("/", name="home")

    @tag("slow")
    @task
    def report(self):
        self.client.get("/sleep?ms=100", name="report")

    @task
    def item(self):
        self.client.get("/fib/6", name="item")

# A SequentialTaskSet walked in order, leaving by interrupt() at its end; its on_start runs on each entry.
from locust import HttpUser, SequentialTaskSet, constant, task


class Checkout(SequentialTaskSet):
    def on_start(self):
        self.client.get("/", name="seq enter")

    @task
    def cart(self):
        self.client.get("/json", name="seq cart")

    @task
    def pay(self):
        self.client.post("/echo", data="pay", name="seq pay")

    @task
    def done(self):
        self.interrupt()


class Shopper(HttpUser):
    wait_time = constant(0.2)
    tasks = [Checkout]

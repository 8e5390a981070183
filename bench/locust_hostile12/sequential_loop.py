# A SequentialTaskSet as the user's only task: it loops in order; on_start of the set runs once an entry.
from locust import HttpUser, SequentialTaskSet, constant, task


class Checkout(SequentialTaskSet):
    def on_start(self):
        self.client.get("/", name="0 enter")

    @task
    def cart(self):
        self.client.get("/json", name="1 cart")

    @task
    def address(self):
        self.client.get("/json", name="2 address")

    @task
    def pay(self):
        self.client.post("/echo", data="pay", name="3 pay")


class Buyer(HttpUser):
    wait_time = constant(0.1)
    tasks = [Checkout]

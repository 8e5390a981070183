# args: -u 60 -r 60 -t 15s
# A checkout walked in order by a SequentialTaskSet, logged in first.
from locust import HttpUser, SequentialTaskSet, task, constant


class Checkout(SequentialTaskSet):
    def on_start(self):
        self.client.post("/login", json={"user": "bob", "password": "secret"})

    @task
    def cart(self):
        self.client.get("/json", name="cart")

    @task
    def pay(self):
        self.client.post("/echo", data={"card": "4111", "amount": "12.50"}, name="pay")

    @task
    def receipt(self):
        self.client.get("/user", name="receipt")
        self.interrupt()


class Buyer(HttpUser):
    wait_time = constant(0.5)
    tasks = [Checkout]

from locust import SequentialTaskSet, task
from common.auth import login


class Checkout(SequentialTaskSet):
    def on_start(self):
        self.headers = login(self.user, "bob")

    @task
    def cart(self):
        self.client.get("/json", name="cart")

    @task
    def pay(self):
        self.client.get("/error/0", name="pay", headers=self.headers)

    @task
    def done(self):
        self.client.get("/error/1", name="receipt")
        self.interrupt()

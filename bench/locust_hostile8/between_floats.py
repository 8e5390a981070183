# Think times in floats with weights by class, as a retail team writes them.
from locust import HttpUser, between, task


class Shopper(HttpUser):
    wait_time = between(0.1, 0.3)
    weight = 3

    @task(5)
    def browse(self):
        self.client.get("/json", name="browse")

    @task(1)
    def cart(self):
        self.client.post("/echo", json={"item": 1}, name="cart")


class Admin(HttpUser):
    wait_time = between(0.25, 0.75)
    weight = 1

    @task
    def dashboard(self):
        self.client.get("/user", name="dashboard")

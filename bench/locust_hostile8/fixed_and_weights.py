# One monitor user always, shoppers and browsers by weight: -u smaller than the classes.
from locust import HttpUser, constant, task


class Monitor(HttpUser):
    fixed_count = 1
    wait_time = constant(0.5)

    @task
    def health(self):
        self.client.get("/", name="health")


class Shopper(HttpUser):
    weight = 5
    wait_time = constant(0.2)

    @task
    def buy(self):
        self.client.get("/json", name="buy")


class Browser(HttpUser):
    weight = 1
    wait_time = constant(0.2)

    @task
    def look(self):
        self.client.get("/user", name="look")

# One fixed_count user beside weighted ones: the fixed one runs once however many users there are.
from locust import HttpUser, between, task


class Monitor(HttpUser):
    fixed_count = 1
    wait_time = between(0.4, 0.6)

    @task
    def health(self):
        self.client.get("/", name="health")


class Light(HttpUser):
    weight = 1
    wait_time = between(0.1, 0.3)

    @task
    def light(self):
        self.client.get("/json", name="light")


class Heavy(HttpUser):
    weight = 2
    wait_time = between(0.1, 0.3)

    @task
    def heavy(self):
        self.client.get("/fib/10", name="heavy")

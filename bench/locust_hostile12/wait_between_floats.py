# between() with float bounds, equal bounds, and reversed bounds (random.uniform takes either order).
from locust import HttpUser, between, task


class Ranged(HttpUser):
    wait_time = between(0.05, 0.15)

    @task
    def ranged(self):
        self.client.get("/", name="ranged")


class Fixed(HttpUser):
    wait_time = between(0.25, 0.25)

    @task
    def fixed(self):
        self.client.get("/", name="fixed")


class Reversed(HttpUser):
    wait_time = between(0.3, 0.1)

    @task
    def reversed_(self):
        self.client.get("/", name="reversed")

# args: -u 40 -r 40 -t 15s
# catch_response blocks that raise inside, fail after success, KeyError on a body, templated names.
import random

from locust import HttpUser, constant_pacing, task


class Checker(HttpUser):
    wait_time = constant_pacing(0.25)

    @task(2)
    def flip(self):
        with self.client.get("/json", catch_response=True, name="flip") as r:
            r.success()
            if random.random() < 2:
                r.failure("changed my mind")

    @task(2)
    def missing_key(self):
        with self.client.get("/user", catch_response=True, name="user key") as r:
            value = r.json()["no_such_key"]
            r.success()

    @task(2)
    def item(self):
        item_id = random.randint(1, 500)
        self.client.get(f"/fib/{item_id % 20}", name=f"/item/[id]")

    @task(1)
    def bare_key(self):
        self.client.get("/json", name="bare").json()["absent"]

    @task(1)
    def raise_inside(self):
        with self.client.get("/", catch_response=True, name="raiser") as r:
            raise ValueError("boom")

# A seeded random picks names: Python's Mersenne Twister gives every run the same sequence.
import random

from locust import HttpUser, constant, task

random.seed(42)
ORDER = random.sample(["alpha", "beta", "gamma", "delta"], 4)
PICKS = [random.choice("xyz") for _ in range(3)]
WEIGHTED = random.choices(["hot", "cold"], weights=[3, 1], k=4)


class Seeded(HttpUser):
    wait_time = constant(0.3)

    @task
    def pick(self):
        self.client.get("/", name=f"order {'-'.join(ORDER)}")
        self.client.get("/", name=f"picks {''.join(PICKS)} {'/'.join(WEIGHTED)}")
        self.client.get("/", name=f"randint {random.Random(7).randint(1, 100)}")

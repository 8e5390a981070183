# A reproducible mix: random seeded with a float (a run's id), weighted choices and a shuffled plan.
import random

from locust import HttpUser, constant, task

random.seed(20.5)
PLAN = random.choices(["browse", "search", "buy"], weights=[5, 3, 1], k=6)
ORDER = ["a", "b", "c", "d"]
random.shuffle(ORDER)


class Seeded(HttpUser):
    wait_time = constant(0.25)

    @task
    def follow(self):
        self.client.get("/json", name=f"plan {'-'.join(PLAN)} order {''.join(ORDER)}")

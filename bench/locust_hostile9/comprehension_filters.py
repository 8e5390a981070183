# Comprehensions with conditions and nested loops build the request plan once per user.
from locust import HttpUser, constant, task

SIZES = [1, 2, 3, 4]
KINDS = ["a", "b"]


class Planner(HttpUser):
    wait_time = constant(0.2)

    def on_start(self):
        self.plan = [f"{k}{n}" for k in KINDS for n in SIZES if n % 2 == 0 if k != "b" or n > 2]
        self.weights = {k: sum(n for n in SIZES if n > 1) for k in KINDS}
        self.flat = sorted({n * m for n in SIZES for m in SIZES if n < m})
        self.i = 0

    @task
    def step(self):
        item = self.plan[self.i % len(self.plan)]
        self.i += 1
        self.client.get("/json", name=f"plan {item}")
        if all(w == 9 for w in self.weights.values()) and any(x > 10 for x in self.flat):
            self.client.get("/", name=f"flat {len(self.flat)}")

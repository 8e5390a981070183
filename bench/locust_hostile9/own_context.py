# A context manager of the file's own around steps: it names each step and marks a failed one.
import time

from locust import HttpUser, constant, task


class Step:
    def __init__(self, user, name):
        self.user = user
        self.name = name

    def __enter__(self):
        self.start = time.time()
        return self

    def __exit__(self, exc_type, exc, tb):
        outcome = "failed" if exc_type else "passed"
        self.user.outcomes.append(f"{self.name} {outcome}")
        return exc_type is KeyError


class Journey(HttpUser):
    wait_time = constant(0.3)

    def on_start(self):
        self.outcomes = []

    @task
    def journey(self):
        with Step(self, "browse") as s:
            self.client.get("/", name=s.name)
        with Step(self, "lookup"):
            data = self.client.get("/json").json()
            data["missing"]
        with Step(self, "report"):
            self.client.get("/", name=self.outcomes[-1])

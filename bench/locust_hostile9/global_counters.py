# A module's counters changed with global, and a closure's with nonlocal, name the requests.
from locust import HttpUser, constant, task

STARTED = 0


def counter():
    count = 0

    def bump():
        nonlocal count
        count += 1
        return count

    return bump


class Counted(HttpUser):
    wait_time = constant(0.2)

    def on_start(self):
        global STARTED
        STARTED += 1
        self.bump = counter()
        self.client.get("/", name="start")

    @task
    def tick(self):
        n = self.bump()
        self.client.get("/json", name="even" if n % 2 == 0 else "odd")

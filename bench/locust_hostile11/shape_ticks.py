# A LoadTestShape that reads get_run_time() and its own tick count: 2 users, then 4, then 1, then stop.
from locust import HttpUser, LoadTestShape, constant, task


class Visitor(HttpUser):
    wait_time = constant(0.5)

    @task
    def visit(self):
        self.client.get("/", name="visit")


class Steps(LoadTestShape):
    ticks = 0

    def tick(self):
        self.ticks += 1
        t = self.get_run_time()
        if t < 2:
            return (2, 2)
        if t < 4:
            return (4, 4)
        if t < 6:
            return (1, 10)
        return None

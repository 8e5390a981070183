# A LoadTestShape whose tick() returns (users, rate, user_classes): readers, then writers only, then stop.
from locust import HttpUser, LoadTestShape, constant, task


class Reader(HttpUser):
    wait_time = constant(0.2)

    @task
    def read(self):
        self.client.get("/json", name="read")


class Writer(HttpUser):
    wait_time = constant(0.2)

    @task
    def write(self):
        self.client.post("/echo", data="w", name="write")


class Phases(LoadTestShape):
    def tick(self):
        t = self.get_run_time()
        if t < 2:
            return (2, 10, [Reader])
        if t < 4:
            return (3, 10.0, [Writer])
        return None

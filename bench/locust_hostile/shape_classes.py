# args: -t 20s
# A shape that picks the user classes of each stage: (users, rate, user_classes).
from locust import HttpUser, LoadTestShape, constant, task


class Browser(HttpUser):
    wait_time = constant(0.5)

    @task
    def browse(self):
        self.client.get("/", name="browse")


class Buyer(HttpUser):
    wait_time = constant(0.5)

    @task
    def buy(self):
        self.client.post("/echo", data="buy", name="buy")


class Stages(LoadTestShape):
    stages = [(4, 4, 4, [Browser]), (8, 6, 6, [Browser, Buyer])]

    def tick(self):
        t = self.get_run_time()
        for end, users, rate, classes in self.stages:
            if t < end:
                return users, rate, classes
        return None

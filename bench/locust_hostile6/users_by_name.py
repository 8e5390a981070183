# Three users of three wait kinds; two are picked by name on the command line, the third never runs.
from locust import HttpUser, constant, constant_pacing, constant_throughput, task


class Paced(HttpUser):
    wait_time = constant_pacing(0.5)

    @task
    def paced(self):
        self.client.get("/sleep?ms=100", name="paced")


class Steady(HttpUser):
    wait_time = constant_throughput(4)

    @task
    def steady(self):
        self.client.get("/json", name="steady")


class Unused(HttpUser):
    wait_time = constant(0.1)

    @task
    def unused(self):
        self.client.get("/", name="unused")

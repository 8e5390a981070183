# Three classes, three waits: a throughput with a fraction, pacing, and between with floats.
from locust import HttpUser, between, constant_pacing, constant_throughput, task


class Steady(HttpUser):
    wait_time = constant_throughput(2.5)

    @task
    def steady(self):
        self.client.get("/json", name="steady")


class Paced(HttpUser):
    wait_time = constant_pacing(0.4)

    @task
    def paced(self):
        self.client.get("/sleep?ms=100", name="paced")


class Jittery(HttpUser):
    wait_time = between(0.15, 0.35)

    @task
    def jitter(self):
        self.client.get("/", name="jitter")

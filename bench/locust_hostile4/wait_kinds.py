# Four user classes, one wait_time kind each: constant_throughput, constant_pacing, a lambda, a method.
import random

from locust import HttpUser, constant_pacing, constant_throughput, task


class Poller(HttpUser):
    wait_time = constant_throughput(4)

    @task
    def poll(self):
        self.client.get("/json", name="poll 4/s")


class Pacer(HttpUser):
    wait_time = constant_pacing(0.5)

    @task
    def tick(self):
        self.client.get("/user?delayMs=100", name="paced 0.5s")


class Lambda(HttpUser):
    wait_time = lambda self: 0.25

    @task
    def beat(self):
        self.client.get("/", name="lambda 0.25s")


class Jitter(HttpUser):
    def wait_time(self):
        return 0.2 + random.random() * 0.1

    @task
    def jitter(self):
        self.client.get("/fib/10", name="jitter")

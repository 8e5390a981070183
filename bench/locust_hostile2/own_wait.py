# wait_time functions of the team's own: a closure factory, a method, a lambda.
import random

from locust import HttpUser, task


def jittered(base, spread):
    def wait(user):
        return base + random.random() * spread
    return wait


class Jitter(HttpUser):
    wait_time = jittered(0.3, 0.2)

    @task
    def a(self):
        self.client.get("/json", name="jitter")


class Backoff(HttpUser):
    def wait_time(self):
        self.waits = getattr(self, "waits", 0) + 1
        return min(0.1 * self.waits, 0.5)

    @task
    def b(self):
        self.client.get("/", name="backoff")


class Fixed(HttpUser):
    wait_time = lambda self: 0.4

    @task
    def c(self):
        self.client.get("/fib/5", name="lambda")

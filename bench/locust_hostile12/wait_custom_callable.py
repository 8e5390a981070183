# A custom wait: a method named wait_time, a module function taking the user, a lambda, a set's own.
from locust import HttpUser, TaskSet, task


def backoff(user):
    user.waits += 1
    return min(0.05 * user.waits, 0.3)


class Method(HttpUser):
    def wait_time(self):
        return 0.2

    @task
    def method(self):
        self.client.get("/", name="method wait")


class Function(HttpUser):
    wait_time = backoff

    def on_start(self):
        self.waits = 0

    @task
    def function(self):
        self.client.get("/", name="function wait")


class Lambda(HttpUser):
    wait_time = lambda self: 0.1  # noqa: E731

    @task
    def lam(self):
        self.client.get("/", name="lambda wait")

# tasks as a dict of functions, a set and a method read by name; a weight of 0 never runs.
from locust import HttpUser, TaskSet, constant, task


def ping(user):
    user.client.get("/", name="dict ping")


def never(user):
    user.client.get("/", name="dict never")


class Inner(TaskSet):
    @task
    def inner(self):
        self.client.get("/json", name="dict inner")
        self.interrupt()


class Weighted(HttpUser):
    wait_time = constant(0.1)
    tasks = {ping: 4, Inner: 2, never: 0}

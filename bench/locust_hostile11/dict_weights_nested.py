# tasks as a dict of weights: a nested TaskSet (itself a dict with a nested set) beside a plain function.
from locust import HttpUser, TaskSet, constant, task


def root(user):
    user.client.get("/", name="root")


class Inner(TaskSet):
    tasks = {lambda ts: ts.client.get("/json", name="inner json"): 2}

    @task
    def leave(self):
        self.client.get("/", name="inner leave")
        self.interrupt()


class Outer(TaskSet):
    tasks = {Inner: 1}

    @task(2)
    def outer(self):
        self.client.get("/json", name="outer")

    @task
    def back(self):
        self.interrupt(reschedule=False)


class Mixed(HttpUser):
    wait_time = constant(0.2)
    tasks = {Outer: 3, root: 1}

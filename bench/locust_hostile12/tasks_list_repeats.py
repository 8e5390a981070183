# tasks as a list with a function repeated (its weight by count) and a @task method beside it, which Locust
# adds to the list's tasks.
from locust import HttpUser, constant, task


def a(user):
    user.client.get("/", name="list a")


def b(user):
    user.client.get("/", name="list b")


class Listed(HttpUser):
    wait_time = constant(0.1)
    tasks = [a, a, a, b]

    @task
    def ignored(self):
        self.client.get("/", name="list ignored")

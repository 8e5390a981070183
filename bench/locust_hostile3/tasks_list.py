# tasks as a list with a function twice, and on_stop sending a last request as users stop.
from locust import HttpUser, constant


def read(user):
    user.client.get("/json", name="read")


def write(user):
    user.client.post("/echo", data="w", name="write")


class Api(HttpUser):
    wait_time = constant(0.2)
    tasks = [read, read, write]

    def on_stop(self):
        self.client.get("/", name="bye")

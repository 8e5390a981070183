# args: -u 20 -r 20 -t 8s
# FastHttpUser with module-level task functions in a weighted dict and a throughput per user.
from locust import FastHttpUser, constant_throughput


def index(user):
    user.client.get("/")


def data(user):
    resp = user.client.get("/json")
    if resp.json()["message"] != "Hello, World!":
        raise ValueError("unexpected message")


def heavy(user):
    user.client.get("/fib/22", name="heavy")


class Api(FastHttpUser):
    wait_time = constant_throughput(4)
    tasks = {index: 5, data: 3, heavy: 1}

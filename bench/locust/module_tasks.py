# args: -u 20 -r 20 -t 12s
# Tasks as module functions (the old docs' style), random.choices by weight, a form post of a dict.
import random

from locust import HttpUser, TaskSet, between


def index(l):
    l.client.get("/")


def product(l):
    sku = random.choices(["A", "B", "C"], weights=[5, 3, 1])[0]
    l.client.get(f"/fib/{ord(sku) - 60}", name="product")


def search(l):
    l.client.post("/echo", {"q": random.sample(["red", "blue", "green"], 2)[0]}, name="search form")


class Browse(TaskSet):
    tasks = {index: 2, product: 3}

    def on_start(self):
        self.seen = 0


class Visitor(HttpUser):
    wait_time = between(0.1, 0.3)
    tasks = {Browse: 3, search: 1}

# args: -u 10 -r 10 -t 8s
# Journey steps named by a @contextmanager helper, a timer helper around a block, logout at on_stop.
import logging
import time
from contextlib import contextmanager

from locust import HttpUser, between, task


@contextmanager
def step(user, name):
    with user.client.rename_request(f"step: {name}"):
        yield


@contextmanager
def timer(label):
    started = time.perf_counter()
    try:
        yield
    finally:
        logging.debug("%s took %.3f s", label, time.perf_counter() - started)


class Journey(HttpUser):
    wait_time = between(0.05, 0.1)

    def on_start(self):
        r = self.client.post("/login", json={"user": "journey", "password": "secret"})
        self.client.headers["Authorization"] = "Bearer " + r.json()["token"]

    @task(2)
    def browse(self):
        with timer("browse"):
            with step(self, "home"):
                self.client.get("/home")
            with step(self, "account"):
                self.client.get("/me")
                self.client.get("/user")

    @task(1)
    def search(self):
        with step(self, "search"):
            self.client.get("/json?q=shoes")

    def on_stop(self):
        self.client.get("/", name="logout")

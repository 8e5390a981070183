# A User subclass with its own __init__, helpers taking *args/**kwargs and defaults, time deltas.
import time

from locust import HttpUser, constant, task


def call(client, method, path, *args, name=None, **kwargs):
    return client.request(method, path, *args, name=name or path, **kwargs)


class Timed(HttpUser):
    wait_time = constant(0.2)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.calls = 0
        self.started = time.time()

    def fetch(self, path, expect=200, **kwargs):
        self.calls += 1
        with self.client.get(path, catch_response=True, **kwargs) as r:
            if r.status_code != expect:
                r.failure(f"{path}: {r.status_code} after {self.calls} calls")
            elif time.time() - self.started < 0:
                r.failure("clock went back")

    @task
    def one(self):
        self.fetch("/", name="plain")

    @task
    def two(self):
        self.fetch("/missing", expect=404, name="expected missing")

    @task
    def three(self):
        call(self.client, "PATCH", "/echo", data="x", name="patch")
        call(self.client, "POST", "/echo", json={"ok": True})

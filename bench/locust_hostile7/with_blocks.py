# An infra team's with blocks beside catch_response: open() over a fixture, contextlib.suppress, its own
# context manager class, and try/except/else/finally with raise ... from.
import contextlib
import json
import os

from locust import HttpUser, constant, task

HERE = os.path.dirname(__file__)


class Timer:
    def __enter__(self):
        self.entered = True
        return self

    def __exit__(self, exc_type, exc, tb):
        self.entered = False
        return False


class BadPayload(Exception):
    pass


class Infra(HttpUser):
    wait_time = constant(0.1)

    def on_start(self):
        with open(os.path.join(HERE, "payload.json")) as f:
            self.payload = json.load(f)

    @task
    def suppressed(self):
        with contextlib.suppress(KeyError):
            self.client.get("/json", name="suppress")
            raise KeyError("gone")

    @task
    def timed(self):
        with Timer() as t:
            self.client.post("/echo", json=self.payload, name="timer")
        if t.entered:
            self.client.get("/nonexistent", name="timer left open")

    @task
    def chained(self):
        try:
            r = self.client.get("/error/0", name="divide")
            data = r.json()
            value = data["result"]
        except (KeyError, ValueError) as e:
            try:
                raise BadPayload("no result") from e
            except BadPayload as wrapped:
                self.client.get("/json", name=f"chained {type(wrapped.__cause__).__name__}")
        else:
            self.client.get("/json", name=f"value {value}")
        finally:
            self.client.get("/", name="finally")

# A team's decorators with arguments: a retry around flaky calls and a label that renames the request.
import functools
import time

from locust import HttpUser, constant, task

CALLS = {"retried": 0}


def retry(times=2, on=(Exception,)):
    def wrap(fn):
        @functools.wraps(fn)
        def run(self, *args, **kwargs):
            for attempt in range(times):
                try:
                    return fn(self, *args, **kwargs)
                except on:
                    CALLS["retried"] += 1
                    if attempt == times - 1:
                        raise
        return run
    return wrap


def labelled(prefix):
    def wrap(fn):
        @functools.wraps(fn)
        def run(self):
            self.prefix = prefix
            return fn(self)
        return run
    return wrap


class Api(HttpUser):
    wait_time = constant(0.2)

    @task(2)
    @labelled("cat")
    def catalog(self):
        self.client.get("/json", name=f"{self.prefix}:{self.catalog.__name__}")

    @task
    @retry(times=3, on=(ValueError,))
    def flaky(self):
        with self.client.get("/error/1", name="flaky", catch_response=True) as r:
            if r.status_code == 500:
                r.failure("server error")
                raise ValueError("try again")

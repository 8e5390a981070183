# @property, @staticmethod, @classmethod, lambdas as defaults and sort keys, functools.partial.
import functools

from locust import HttpUser, constant, task


class Endpoint:
    def __init__(self, path, weight=1):
        self.path = path
        self.weight = weight

    @property
    def label(self):
        return self.path.strip("/") or "root"

    @staticmethod
    def join(*parts):
        return "/" + "/".join(p.strip("/") for p in parts if p)

    @classmethod
    def of(cls, *parts):
        return cls(cls.join(*parts))


def fetch(user, endpoint, prefix="ep", fmt=lambda s: s.upper()):
    user.client.get(endpoint.path, name=f"{prefix} {fmt(endpoint.label)}")


class Methods(HttpUser):
    wait_time = constant(0.25)
    endpoints = sorted([Endpoint("/json", 2), Endpoint.of("", "/"), Endpoint.of("validate")], key=lambda e: -e.weight)

    @task
    def each(self):
        for e in self.endpoints:
            functools.partial(fetch, self, prefix="p")(e)

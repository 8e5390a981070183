# A platform team's Python 3.10: match, walrus, dataclasses with hints, partial, lambdas in tasks,
# generators, __slots__, classmethods and staticmethods, logging and environment settings.
import logging
import os
from dataclasses import dataclass, field
from functools import partial
from typing import Iterator, Optional

from locust import HttpUser, constant, task

log = logging.getLogger(__name__)
API_PREFIX: str = os.environ.get("API_PREFIX", "")


@dataclass
class Endpoint:
    path: str
    kind: str = "read"
    tags: list[str] = field(default_factory=list)


class Counter:
    __slots__ = ("n",)

    def __init__(self) -> None:
        self.n = 0


def pages(limit: int) -> Iterator[str]:
    for i in range(limit):
        yield f"/json?page={i}"


def fetch(user: "Platform", endpoint: Endpoint) -> None:
    match endpoint.kind:
        case "read":
            user.client.get(API_PREFIX + endpoint.path, name=f"read {endpoint.path}")
        case "write":
            user.client.post(API_PREFIX + endpoint.path, json={"tags": endpoint.tags}, name="write")
        case _:
            log.warning("unknown kind %s", endpoint.kind)


class Platform(HttpUser):
    wait_time = constant(0.1)
    tasks = [
        lambda user: fetch(user, Endpoint("/json")),
        lambda user: fetch(user, Endpoint("/echo", "write", ["a"])),
    ]

    @classmethod
    def label(cls, n: int) -> str:
        return f"{cls.__name__} page {n}"

    @staticmethod
    def short(path: Optional[str]) -> str:
        return path or "/"

    def on_start(self) -> None:
        self.count = Counter()

    @task
    def paged(self) -> None:
        for path in pages(2):
            if (n := self.count.n) < 1000:
                self.client.get(path, name=self.label(n % 2))
            self.count.n += 1

    @task
    def partial_call(self) -> None:
        get_home = partial(self.client.get, name="partial home")
        get_home(self.short(None))

# args: -u 4 -r 4 -t 8s
# Python 3.8+ a team writes: type hints, f-string =, walrus, decorators with arguments, dict unions.
import logging
import random
from typing import Any, Callable, Dict, List, Optional

from locust import HttpUser, between, task

SIZES: List[int] = [1, 2, 3]
DEFAULTS: Dict[str, Any] = {"region": "eu", "tier": 1}


def retry(times: int = 2, on: tuple = (ValueError,)) -> Callable:
    def deco(fn: Callable) -> Callable:
        def wrapper(self, *args: Any, **kwargs: Any) -> Any:
            for attempt in range(1, times + 1):
                try:
                    return fn(self, *args, **kwargs)
                except on as e:
                    logging.info(f"{attempt=} {e!r}")
            return None
        return wrapper
    return deco


def labelled(name: str):
    def deco(fn):
        fn.label = name
        return fn
    return deco


class Typed(HttpUser):
    wait_time = between(0.5, 1)
    calls: int = 0
    token: Optional[str] = None

    @task
    @retry(times=3)
    def flaky(self) -> None:
        self.calls += 1
        r = self.client.get(f"/fib/{self.calls % 20}", name="flaky")
        if (n := r.json()["fib"]) % 2 == 1 and self.calls % 3 == 0:
            raise ValueError(f"odd {n=}")

    @task
    @labelled("merge")
    def merge(self) -> None:
        params = DEFAULTS | {"tier": random.choice(SIZES)}
        body = {**params, "sizes": [s * 2 for s in SIZES if s > 1]}
        r = self.client.post("/echo", json=body, name=f"{self.merge.label}")
        assert r.json()["region"] == "eu", f"{r.text=}"

    @task
    def slices(self) -> None:
        path = "/user?delayMs=0"
        base, _, query = path.partition("?")
        self.client.get(f"{base.removeprefix('/')!s:>6}"[-4:] and base, name=f"{base=}".replace("'", ""))

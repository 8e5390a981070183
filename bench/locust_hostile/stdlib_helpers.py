# args: -u 4 -r 4 -t 8s
# The standard library teams reach for: functools.wraps, urllib.parse, secrets, copy.
import copy
import functools
import secrets
import time
from urllib.parse import quote, urlencode

from locust import HttpUser, constant, task

TEMPLATE = {"items": [{"sku": "a"}], "meta": {"source": "load"}}


def timed(fn):
    @functools.wraps(fn)
    def wrapper(self, *args, **kwargs):
        start = time.perf_counter()
        try:
            return fn(self, *args, **kwargs)
        finally:
            self.spent += time.perf_counter() - start
    return wrapper


class Catalog(HttpUser):
    wait_time = constant(0.5)
    spent = 0.0

    @task
    @timed
    def search(self):
        q = urlencode({"ms": 1, "q": "red shoes", "page": 2})
        self.client.get(f"/sleep?{q}", name="search")

    @task
    @timed
    def post(self):
        body = copy.deepcopy(TEMPLATE)
        body["items"].append({"sku": secrets.token_hex(4)})
        r = self.client.post("/echo?tag=" + quote("a b/c"), json=body, name="post")
        assert len(TEMPLATE["items"]) == 1 and len(r.json()["items"]) == 2

# A helper with a mutable default (the list lives across calls) and a dict cache at module level.
from locust import HttpUser, constant, task


def remember(item, seen=[]):
    seen.append(item)
    return len(seen)


def cached(key, _cache={}):
    if key not in _cache:
        _cache[key] = len(_cache) + 1
    return _cache[key]


class Visitor(HttpUser):
    wait_time = constant(0.25)

    def on_start(self):
        self.n = remember(self)
        self.client.get("/", name=f"visitor slot {min(self.n, 3)}")

    @task
    def page(self):
        slot = cached("/json")
        self.client.get("/json", name=f"cached {slot}")

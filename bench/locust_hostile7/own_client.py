# A team's cache service tested with a client of its own, as Locust's "testing other systems" docs write it:
# a wrapper whose __getattr__ times each call and fires it as a request event.
import time

from locust import User, between, events, task


class FakeCache:
    """Stands in for the service's own client library: work this file can run."""

    def __init__(self):
        self.data = {}

    def set(self, key, value):
        time.sleep(0.002)
        self.data[key] = value
        return True

    def get(self, key):
        time.sleep(0.003)
        if key not in self.data:
            raise LookupError(f"miss {key}")
        return self.data[key]


class CacheClient:
    def __init__(self, request_event):
        self._client = FakeCache()
        self._request_event = request_event

    def __getattr__(self, name):
        func = getattr(self._client, name)

        def wrapper(*args, **kwargs):
            request_meta = {
                "request_type": "cache",
                "name": name,
                "start_time": time.time(),
                "response_length": 0,
                "response": None,
                "context": {},
                "exception": None,
            }
            start_perf_counter = time.perf_counter()
            try:
                request_meta["response"] = func(*args, **kwargs)
            except Exception as e:
                request_meta["exception"] = e
            request_meta["response_time"] = (time.perf_counter() - start_perf_counter) * 1000
            self._request_event.fire(**request_meta)
            return request_meta["response"]

        return wrapper


class CacheUser(User):
    abstract = True

    def __init__(self, environment):
        super().__init__(environment)
        self.client = CacheClient(request_event=environment.events.request)


class Reader(CacheUser):
    wait_time = between(0.05, 0.1)

    @task(3)
    def warm(self):
        self.client.set("user:1", "alice")
        self.client.get("user:1")

    @task
    def cold(self):
        self.client.get("user:404")

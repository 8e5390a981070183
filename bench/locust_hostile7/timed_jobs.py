# A platform team times its own jobs beside HTTP: a decorator fires each as a request, on_start reports setup.
import time
from functools import wraps

from locust import HttpUser, constant, events, task


def timed(kind, name=None):
    def decorate(fn):
        @wraps(fn)
        def inner(self, *args, **kwargs):
            start = time.perf_counter()
            exc = None
            try:
                return fn(self, *args, **kwargs)
            except Exception as e:
                exc = e
            finally:
                events.request.fire(
                    request_type=kind,
                    name=name or fn.__name__,
                    response_time=(time.perf_counter() - start) * 1000,
                    response_length=0,
                    exception=exc,
                    context={"user": id(self) % 2},
                )

        return inner

    return decorate


class Api(HttpUser):
    wait_time = constant(0.1)

    def on_start(self):
        t0 = time.time()
        self.client.get("/json", name="warm-up")
        self.environment.events.request.fire(
            request_type="setup", name="on_start", response_time=(time.time() - t0) * 1000,
            response_length=0, exception=None, context={},
        )

    @task(2)
    @timed("job", "render report")
    def render(self):
        r = self.client.get("/json")
        if r.status_code != 200:
            raise RuntimeError("bad status")
        time.sleep(0.01)

    @task
    @timed("job")
    def export(self):
        self.client.get("/fib/999")
        raise ValueError("export failed")

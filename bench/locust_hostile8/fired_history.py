# A cache client timed by hand and fired as request events, with the full history CSV CI archives.
import time

from locust import User, constant, events, task


class CacheUser(User):
    wait_time = constant(0.1)

    @task
    def lookup(self):
        start = time.perf_counter()
        time.sleep(0.01)
        events.request.fire(request_type="cache", name="lookup", response_time=(time.perf_counter() - start) * 1000,
                            response_length=10, exception=None, context={})

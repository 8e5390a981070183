# An events.request listener keeping counts and the exception of each failure, printed at quitting.
from collections import Counter

from locust import HttpUser, constant, events, task

SEEN = Counter()
FAILED = Counter()


@events.request.add_listener
def on_request(request_type, name, response_time, response_length, exception, context, **kwargs):
    SEEN[name] += 1
    if exception is not None:
        FAILED[type(exception).__name__] += 1


@events.quitting.add_listener
def report(environment, **kwargs):
    total = environment.stats.total
    print("listener saw", sum(SEEN.values()) == total.num_requests, sorted(FAILED))
    if total.fail_ratio > 0.9:
        environment.process_exit_code = 4


class Mixed(HttpUser):
    wait_time = constant(0.2)

    @task(3)
    def good(self):
        self.client.get("/json", name="good")

    @task
    def bad(self):
        self.client.get("/missing", name="bad")

# An events.request listener counts requests and failures by name; test_stop prints them, and quitting
# fails the run when its own count and Locust's stats disagree.
import logging
from collections import Counter

from locust import HttpUser, constant, events, task

seen = Counter()
failed = Counter()


@events.request.add_listener
def count(request_type, name, response_time, response_length, exception, context, **kwargs):
    seen[name] += 1
    if exception is not None:
        failed[name] += 1


@events.test_stop.add_listener
def report(environment, **kwargs):
    for name in sorted(seen):
        logging.info("%s: %d sent, %d failed", name, seen[name], failed[name])


@events.quitting.add_listener
def gate(environment, **kwargs):
    total = environment.stats.total
    if sum(seen.values()) != total.num_requests or sum(failed.values()) != total.num_failures:
        environment.process_exit_code = 4
    elif failed["bad"] == 0:
        environment.process_exit_code = 5


class Counted(HttpUser):
    wait_time = constant(0.2)

    @task(2)
    def good(self):
        self.client.get("/json", name="good")

    @task
    def bad(self):
        self.client.get("/error/0", name="bad")

# args: -u 20 -r 20 -t 8s
# A CI gate of the team's own: a request listener counts slow and failed requests per endpoint, and at
# the end the run fails (exit 2) when any endpoint failed more than 5% of its requests.
import logging

from locust import HttpUser, between, events, task

per_name = {}


@events.request.add_listener
def on_request(request_type, name, response_time, response_length, exception, **kwargs):
    entry = per_name.setdefault(name, {"count": 0, "failed": 0, "slow": 0})
    entry["count"] += 1
    if exception:
        entry["failed"] += 1
    if response_time > 1000:
        entry["slow"] += 1


@events.quitting.add_listener
def gate(environment, **kwargs):
    worst = 0.0
    for name, entry in sorted(per_name.items()):
        ratio = entry["failed"] / max(entry["count"], 1)
        logging.info("%s: %d requests, %d failed, %d slow", name, entry["count"], entry["failed"], entry["slow"])
        worst = max(worst, ratio)
    if worst > 0.05:
        logging.error("gate: an endpoint failed %.0f%% of its requests", worst * 100)
        environment.process_exit_code = 2
    else:
        environment.process_exit_code = 0


class Visitor(HttpUser):
    wait_time = between(0.05, 0.15)

    @task(10)
    def home(self):
        self.client.get("/")

    @task(5)
    def data(self):
        self.client.get("/json")

    @task(1)
    def broken(self):
        self.client.get("/static/missing.css", name="missing asset")

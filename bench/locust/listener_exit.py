# args: -u 40 -r 40 -t 15s
# A request listener counting per name and failures, a quitting listener setting the exit code from them.
from collections import defaultdict

from locust import HttpUser, constant_pacing, events, task

counts = defaultdict(int)
failed = {"n": 0}


@events.request.add_listener
def count(request_type, name, response_time, response_length, exception, **kwargs):
    counts[name] += 1
    if exception is not None:
        failed["n"] += 1


@events.quitting.add_listener
def decide(environment, **kwargs):
    print("counted", dict(counts))
    environment.process_exit_code = 3 if failed["n"] > 0 else 0


class Lister(HttpUser):
    wait_time = constant_pacing(0.25)

    @task(5)
    def ok(self):
        self.client.get("/json", name="ok")

    @task(1)
    def bad(self):
        self.client.get("/validate?n=x", name="bad")

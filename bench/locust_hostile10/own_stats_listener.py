# A request listener keeping its own numbers per name, a quitting listener setting the exit code from them.
import statistics
from collections import defaultdict

from locust import HttpUser, constant, events, task

times = defaultdict(list)
failed = defaultdict(int)


@events.request.add_listener
def on_request(request_type, name, response_time, response_length, exception, **kwargs):
    times[name].append(response_time)
    if exception is not None:
        failed[name] += 1


@events.quitting.add_listener
def gate(environment, **kwargs):
    for name, values in sorted(times.items()):
        print(f"{name}: n={len(values)} median={statistics.median(values):.1f} failed={failed[name]}")
    total = sum(len(v) for v in times.values())
    ratio = sum(failed.values()) / total if total else 0
    environment.process_exit_code = 3 if ratio > 0.5 else 0


class Checker(HttpUser):
    wait_time = constant(0.25)

    @task(3)
    def ok(self):
        self.client.get("/json", name="ok")

    @task
    def bad(self):
        self.client.get("/nonexistent", name="bad")

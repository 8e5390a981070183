# args: -u 10 -r 10 -t 8s
# Counters made at test_start, bumped by a request listener, read at test_stop: the run fails (exit 3)
# when more than a tenth of the requests failed.
from locust import HttpUser, between, events, task

counters = None


@events.test_start.add_listener
def on_test_start(environment, **kwargs):
    global counters
    counters = {"ok": 0, "failed": 0, "by_status": {}}


@events.request.add_listener
def on_request(exception, response, context, **kwargs):
    counters["failed" if exception else "ok"] += 1
    status = str(response.status_code)
    counters["by_status"][status] = counters["by_status"].get(status, 0) + 1


@events.test_stop.add_listener
def on_test_stop(environment, **kwargs):
    total = counters["ok"] + counters["failed"]
    print(f"requests {total}, failed {counters['failed']}, statuses {sorted(counters['by_status'])}")
    if total and counters["failed"] / total > 0.1:
        environment.process_exit_code = 3


class Mixed(HttpUser):
    wait_time = between(0.1, 0.2)

    @task(3)
    def good(self):
        self.client.get("/json")

    @task(1)
    def bad(self):
        self.client.get("/static/nope.js", name="bad")

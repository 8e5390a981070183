# args: -u 5 -r 5 -t 8s --exit-code-on-error 0
# A CI gate: a request listener counting what the team calls a failure (slow or 4xx/5xx), and quitting
# setting the exit code from that count, whatever --exit-code-on-error says.
from locust import HttpUser, constant, events, task

counts = {"slow": 0, "bad": 0, "all": 0}


@events.request.add_listener
def count(request_type, name, response_time, response_length, exception, context, **kwargs):
    counts["all"] += 1
    if response_time > 40:
        counts["slow"] += 1
    if exception is not None:
        counts["bad"] += 1


@events.quitting.add_listener
def gate(environment, **kwargs):
    share = counts["bad"] / max(1, counts["all"])
    print(f"gate: {counts} share={share:.2f}")
    if counts["slow"] > 0 and share > 0.1:
        environment.process_exit_code = 5
    elif environment.stats.total.num_failures > 0:
        environment.process_exit_code = 4


class Service(HttpUser):
    wait_time = constant(0.5)

    @task(3)
    def ok(self):
        self.client.get("/json", name="ok")

    @task
    def slow(self):
        self.client.get("/sleep?ms=60", name="slow")

    @task
    def bad(self):
        self.client.get("/fib/999", name="bad")

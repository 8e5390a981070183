# events.request.add_listener tallying failures and slow requests; quitting sets the exit code from them.
from locust import HttpUser, constant, events, task

seen = {"fail": 0, "slow": 0, "all": 0}


@events.request.add_listener
def on_request(request_type, name, response_time, response_length, exception, **kwargs):
    seen["all"] += 1
    if exception:
        seen["fail"] += 1
    if response_time > 100:
        seen["slow"] += 1


@events.quitting.add_listener
def gate(environment, **kwargs):
    environment.process_exit_code = 7 if seen["fail"] > 0 and seen["all"] > 0 else 0


class Api(HttpUser):
    wait_time = constant(0.2)

    @task(3)
    def ok(self):
        self.client.get("/json", name="ok")

    @task
    def slow(self):
        self.client.get("/sleep?ms=150", name="slow")

    @task
    def gone(self):
        self.client.get("/nonexistent", name="gone")

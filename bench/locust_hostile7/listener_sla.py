# An SRE team's request listener turns slow answers into failures of a name of its own.
from locust import HttpUser, constant, events, task

BUDGET_MS = 150


@events.request.add_listener
def sla(request_type, name, response_time, response_length, exception, context, **kwargs):
    if exception is None and name == "sleepy" and response_time > BUDGET_MS:
        events.request.fire(
            request_type="SLA",
            name="over budget",
            response_time=response_time,
            response_length=0,
            exception=Exception(f"{name} took {response_time:.0f} ms"),
            context={},
        )


class Checker(HttpUser):
    wait_time = constant(0.1)

    @task
    def sleepy(self):
        self.client.get("/sleep?ms=200", name="sleepy")

    @task
    def quick(self):
        self.client.get("/json", name="quick")

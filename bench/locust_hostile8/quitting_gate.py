# An SLA gate: a request listener tracks slow calls, quitting sets the exit code from them and the fail ratio.
import logging

from locust import HttpUser, constant, events, task

logger = logging.getLogger(__name__)
slow_calls = []


@events.request.add_listener
def track(request_type, name, response_time, response_length, exception, **kwargs):
    if response_time > 150:
        slow_calls.append(name)


@events.quitting.add_listener
def gate(environment, **kwargs):
    if environment.stats.total.fail_ratio > 0.01:
        logger.error("fail ratio over 1%")
        environment.process_exit_code = 3
    elif len(slow_calls) > 0:
        logger.error("%d slow calls", len(slow_calls))
        environment.process_exit_code = 2
    else:
        environment.process_exit_code = 0


class Api(HttpUser):
    wait_time = constant(0.1)

    @task(5)
    def fast(self):
        self.client.get("/json", name="fast")

    @task
    def slow(self):
        self.client.get("/sleep?ms=200", name="slow")

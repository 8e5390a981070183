# args: -u 12 -r 12 -t 10s
# The CI gate from Locust's docs: quitting sets the exit code from the failure ratio and the p95.
import logging

from locust import HttpUser, between, events, task


@events.quitting.add_listener
def _(environment, **kw):
    if environment.stats.total.fail_ratio > 0.01:
        logging.error("Test failed due to failure ratio > 1%")
        environment.process_exit_code = 3
    elif environment.stats.total.get_response_time_percentile(0.95) > 800:
        logging.error("Test failed due to 95th percentile response time > 800 ms")
        environment.process_exit_code = 4
    else:
        environment.process_exit_code = 0


class Gate(HttpUser):
    wait_time = between(0.2, 0.4)

    @task(10)
    def ok(self):
        self.client.get("/json", name="gate ok")

    @task(1)
    def broken(self):
        self.client.get("/error/1", name="gate broken")

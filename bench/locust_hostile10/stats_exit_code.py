# A CI gate on Locust's own numbers: the quitting listener reads environment.stats and sets the exit code.
import logging

from locust import HttpUser, constant, events, task


@events.quitting.add_listener
def ci_gate(environment, **kwargs):
    total = environment.stats.total
    if total.fail_ratio > 0.1:
        logging.error("fail ratio %.2f over 0.1", total.fail_ratio)
        environment.process_exit_code = 2
    elif total.get_response_time_percentile(0.95) > 5000:
        environment.process_exit_code = 3
    else:
        environment.process_exit_code = 0


class Gate(HttpUser):
    wait_time = constant(0.25)

    @task(4)
    def fine(self):
        self.client.get("/json", name="fine")

    @task
    def broken(self):
        self.client.get("/nonexistent", name="broken")

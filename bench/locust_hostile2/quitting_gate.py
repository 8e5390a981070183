# The end's gate: events.quitting sets process_exit_code from the stats, as Locust's docs show.
import logging

from locust import HttpUser, constant, events, task


@events.quitting.add_listener
def _(environment, **kw):
    stats = environment.stats.total
    if stats.fail_ratio > 0.05:
        logging.error("Test failed due to failure ratio > 5%")
        environment.process_exit_code = 7
    elif stats.get_response_time_percentile(0.95) > 800:
        logging.error("Test failed due to 95th percentile response time > 800 ms")
        environment.process_exit_code = 8
    else:
        environment.process_exit_code = 0


class Api(HttpUser):
    wait_time = constant(0.3)

    @task(4)
    def fine(self):
        self.client.get("/json", name="fine")

    @task
    def broken(self):
        self.client.get("/error/0", name="broken")

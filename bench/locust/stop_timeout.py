# args: -u 10 -r 10 -t 8s --stop-timeout 3
# Long journeys that --stop-timeout lets finish at the end, an on_stop logout, and the run's options read
# at test_start.
import time
import logging

from locust import HttpUser, constant, events, task


@events.test_start.add_listener
def on_test_start(environment, **kwargs):
    logging.info("test start: %s users, stop timeout %s", environment.parsed_options.num_users,
                 environment.parsed_options.stop_timeout)


class Traveller(HttpUser):
    wait_time = constant(0.2)

    @task
    def journey(self):
        self.client.get("/json", name="step 1")
        time.sleep(1.2)
        self.client.get("/json", name="step 2")
        time.sleep(1.2)
        self.client.get("/json", name="step 3")

    def on_stop(self):
        self.client.post("/echo", json={"bye": True}, name="logout")

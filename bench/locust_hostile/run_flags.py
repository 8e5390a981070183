# args: -u 5 -r 2.5 --run-time 0m8s --stop-timeout 2 -L DEBUG --reset-stats --html /tmp/loadlab-locust-run-flags.html
# Locust's long flags and their spellings: --run-time with minutes, --stop-timeout in bare seconds, a
# float spawn rate, DEBUG logging, --reset-stats and an HTML report.
import logging

from locust import HttpUser, constant, task


class Job(HttpUser):
    wait_time = constant(0.5)

    def on_start(self):
        logging.debug("user starting")
        self.client.get("/", name="warm")

    @task
    def work(self):
        self.client.get("/sleep?ms=300", name="work")

    def on_stop(self):
        self.client.get("/json", name="bye")

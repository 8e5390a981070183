# args: -u 20 -r 5 -t 10s --stop-timeout 2 --loglevel INFO
# A stepped ramp, a stop timeout letting a long task finish, logging from INFO (debug lines hidden).
import logging

from locust import HttpUser, constant, task


class Long(HttpUser):
    wait_time = constant(0.2)

    @task(3)
    def quick(self):
        self.client.get("/json", name="quick")
        logging.debug("hidden at INFO")

    @task(1)
    def slow(self):
        self.client.get("/sleep?ms=700", name="slow")
        self.client.get("/", name="after slow")

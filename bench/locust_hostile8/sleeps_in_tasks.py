# Tasks that sleep between calls the way teams write it: time.sleep (gevent patches it) and gevent.sleep.
import time

import gevent
from locust import HttpUser, constant, task


class Poller(HttpUser):
    wait_time = constant(0)

    @task
    def poll(self):
        self.client.post("/echo", json={"job": 1}, name="submit")
        time.sleep(0.3)
        self.client.get("/json", name="status")
        gevent.sleep(0.2)
        self.client.get("/json", name="result")

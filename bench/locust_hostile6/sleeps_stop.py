# Tasks stopped mid-sleep: gevent.sleep, a blocking time.sleep, and a long wait, under --stop-timeout.
import time

import gevent
from locust import HttpUser, constant, task


class Sleeper(HttpUser):
    wait_time = constant(0.5)

    @task
    def step(self):
        self.client.get("/json", name="before")
        gevent.sleep(0.3)
        self.client.get("/", name="after gevent")
        time.sleep(0.2)
        self.client.get("/fib/4", name="after time")

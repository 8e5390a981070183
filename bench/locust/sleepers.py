# args: -u 40 -r 40 -t 15s
# A task that sleeps with time.sleep and gevent.sleep between its requests (think time inside a task).
import time

import gevent
from locust import HttpUser, constant, task


class Thinker(HttpUser):
    wait_time = constant(0)

    @task(1)
    def think_time(self):
        self.client.get("/", name="before")
        time.sleep(0.5)
        self.client.get("/json", name="after")

    @task(1)
    def green(self):
        gevent.sleep(0.5)
        self.client.get("/user", name="green")

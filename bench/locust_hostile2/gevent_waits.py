# gevent.sleep between steps of a task, and a user that waits on its own.
import gevent
from locust import HttpUser, constant, task


class Poller(HttpUser):
    wait_time = constant(0)

    @task
    def poll(self):
        self.client.post("/echo", json={"job": 1}, name="submit")
        for _ in range(3):
            gevent.sleep(0.2)
            self.client.get("/json", name="status")
        gevent.sleep(0.3)

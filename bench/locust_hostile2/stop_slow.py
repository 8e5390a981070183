# --stop-timeout 4: users finish their slow checkout before the run ends.
import time

from locust import HttpUser, constant, events, task

finished = {"n": 0}


@events.quitting.add_listener
def done(environment, **kw):
    print(f"checkouts finished: {finished['n']}")


class Buyer(HttpUser):
    wait_time = constant(0.2)

    @task
    def checkout(self):
        self.client.get("/json", name="cart")
        time.sleep(1.5)
        self.client.get("/sleep?ms=200", name="pay")
        finished["n"] += 1

# args: -u 30 -r 10 -t 15s --stop-timeout 2
# A payments team's checkout: a slow step each cycle, a timeout on it, --stop-timeout so a payment in progress
# finishes at the end, and the pause between steps read from the command line's user count.
import time

from locust import SequentialTaskSet, HttpUser, between, task


class Checkout(SequentialTaskSet):
    @task
    def basket(self):
        self.client.post("/echo", json={"items": [1, 2, 3]}, name="basket")

    @task
    def pay(self):
        self.client.get("/sleep", params={"ms": 150}, name="pay", timeout=5)
        time.sleep(0.1 if self.user.environment.parsed_options.num_users > 10 else 0.2)

    @task
    def receipt(self):
        self.client.get("/json", name="receipt")


class Buyer(HttpUser):
    wait_time = between(0.3, 0.5)
    tasks = [Checkout]

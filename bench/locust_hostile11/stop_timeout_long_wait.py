# A long wait_time: -t ends while users wait; --stop-timeout shorter than the wait.
from locust import HttpUser, between, task


class Waiter(HttpUser):
    wait_time = between(2.5, 3)

    @task
    def one(self):
        self.client.get("/json", name="one")

    def on_stop(self):
        self.client.get("/", name="bye")

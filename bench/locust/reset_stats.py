# args: -u 6 -r 2 -t 8s --reset-stats
# A shop whose ramp is left out of the numbers: each user logs in at on_start, then browses; --reset-stats
# counts from when the last of three batches has spawned (the last batch's logins in, the others' out).
from locust import HttpUser, between, task


class Shopper(HttpUser):
    wait_time = between(0.05, 0.15)

    def on_start(self):
        self.client.post("/login", json={"user": "shopper", "password": "secret"}, name="login")

    @task(4)
    def home(self):
        self.client.get("/", name="home")

    @task(2)
    def catalog(self):
        self.client.get("/json", name="catalog")

    @task
    def stale_link(self):
        self.client.get("/no-such-page", name="stale link")

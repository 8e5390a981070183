# Users that think for seconds: at --run-time's end a waiting user stops at once, a working one finishes.
from locust import HttpUser, between, task


class Reader(HttpUser):
    wait_time = between(2, 3)

    @task
    def article(self):
        self.client.get("/sleep?ms=800", name="article")
        self.client.get("/json", name="comments")

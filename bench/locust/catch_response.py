# args: -u 60 -r 60 -t 15s
# Checks written with catch_response: a 404 taken as success, a body that fails its check.
from locust import HttpUser, task, constant


class Checker(HttpUser):
    wait_time = constant(0.5)

    @task
    def gone(self):
        with self.client.get("/old-page", catch_response=True, name="old-page") as response:
            if response.status_code == 404:
                response.success()

    @task
    def body(self):
        with self.client.get("/json", catch_response=True) as response:
            if "nothing-like-this" not in response.text:
                response.failure("body lacks the word")

    @task
    def fine(self):
        with self.client.get("/", catch_response=True) as response:
            if response.elapsed.total_seconds() > 5:
                response.failure("too slow")

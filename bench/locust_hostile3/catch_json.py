# catch_response checking the body's JSON: failure() on a wrong value, success() on a 404 expected.
from locust import HttpUser, constant, task


class Checker(HttpUser):
    wait_time = constant(0.2)

    @task(2)
    def hello(self):
        with self.client.get("/json", catch_response=True, name="hello") as r:
            if r.json().get("message") != "Hello, World!":
                r.failure("wrong message")

    @task
    def wrong(self):
        with self.client.get("/json", catch_response=True, name="wrong") as r:
            if "nope" not in r.json():
                r.failure("no nope in " + str(sorted(r.json())))

    @task
    def expected_404(self):
        with self.client.get("/nonexistent", catch_response=True, name="expected 404") as r:
            if r.status_code == 404:
                r.success()

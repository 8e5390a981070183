# catch_response blocks as teams write them: raise_for_status inside (a 4xx fails with its HTTPError),
# success() on an expected 404, failure() on a body check, and a block that checks nothing.
from locust import HttpUser, constant, task


class Checker(HttpUser):
    wait_time = constant(0.1)

    @task
    def expected_missing(self):
        with self.client.get("/static/gone.css", catch_response=True, name="expected 404") as r:
            if r.status_code == 404:
                r.success()

    @task
    def strict(self):
        with self.client.get("/validate?id=x", catch_response=True, name="strict") as r:
            r.raise_for_status()

    @task
    def body_check(self):
        with self.client.get("/json", catch_response=True, name="body check") as r:
            if r.json().get("message") != "Hello, World!":
                r.failure("wrong message")
            elif r.elapsed.total_seconds() > 5:
                r.failure("too slow")

    @task
    def unchecked(self):
        with self.client.get("/error/1", catch_response=True, name="unchecked 500"):
            pass

# catch_response as teams write it: json() of a body that is not JSON, failure() after success(), and back.
from json import JSONDecodeError

from locust import HttpUser, constant, task


class Checks(HttpUser):
    wait_time = constant(0.25)

    @task
    def not_json(self):
        with self.client.get("/", name="not json", catch_response=True) as r:
            try:
                r.json()
            except JSONDecodeError:
                r.failure("body is not JSON")

    @task
    def late_failure(self):
        with self.client.get("/json", name="late failure", catch_response=True) as r:
            r.success()
            if r.elapsed.total_seconds() >= 0:
                r.failure("checked after success")

    @task
    def recovered(self):
        with self.client.get("/nonexistent", name="recovered", catch_response=True) as r:
            r.failure("first look")
            if r.status_code == 404:
                r.success()

    @task
    def json_raises(self):
        with self.client.get("/", name="json raises", catch_response=True) as r:
            if r.json().get("ok"):
                r.success()

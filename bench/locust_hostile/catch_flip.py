# args: -u 4 -r 4 -t 8s
# catch_response blocks that change their mind: failure after success, success after failure, an
# exception object as the failure, raise_for_status inside the block, and failure() twice.
from locust import HttpUser, constant, task


class Checker(HttpUser):
    wait_time = constant(0.5)

    @task
    def late_failure(self):
        with self.client.get("/json", catch_response=True, name="late failure") as r:
            r.success()
            if "ok" not in r.text:
                r.failure("no ok in body")

    @task
    def late_success(self):
        with self.client.get("/fib/999", catch_response=True, name="late success") as r:
            r.failure("first look")
            if r.status_code == 400:
                r.success()

    @task
    def exception_failure(self):
        with self.client.get("/user", catch_response=True, name="exception failure") as r:
            r.failure(ValueError("bad user"))

    @task
    def twice(self):
        with self.client.get("/", catch_response=True, name="twice") as r:
            r.failure("one")
            r.failure("two")

    @task
    def raise_inside(self):
        with self.client.get("/static/none.js", catch_response=True, name="raise inside") as r:
            r.raise_for_status()

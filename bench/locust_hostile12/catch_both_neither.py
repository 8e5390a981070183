# catch_response: success() then failure(); failure() then success(); neither on a 404, a 500, a 200.
from locust import HttpUser, constant, task


class Caught(HttpUser):
    wait_time = constant(0.2)

    @task
    def calls(self):
        with self.client.get("/json", name="ok then fail", catch_response=True) as r:
            r.success()
            r.failure("changed my mind")
        with self.client.get("/missing", name="fail then ok", catch_response=True) as r:
            r.failure("first")
            r.success()
        with self.client.get("/missing", name="neither 404", catch_response=True):
            pass
        with self.client.get("/error/1", name="neither 500", catch_response=True):
            pass
        with self.client.get("/json", name="neither 200", catch_response=True):
            pass

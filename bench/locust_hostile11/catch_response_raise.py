# catch_response blocks: success() on a 404, failure() with an exception, an assert, a raise of a
# Locust exception inside the block, and a failed status left alone.
from locust import HttpUser, constant, task
from locust.exception import RescheduleTask


class Checker(HttpUser):
    wait_time = constant(0.2)

    @task
    def accept_404(self):
        with self.client.get("/nonexistent", catch_response=True, name="404 ok") as r:
            if r.status_code == 404:
                r.success()

    @task
    def failure_exception(self):
        with self.client.get("/json", catch_response=True, name="exc failure") as r:
            r.failure(ValueError("bad value"))

    @task
    def assert_in_block(self):
        with self.client.get("/", catch_response=True, name="assert") as r:
            assert "nothing" in r.text, "no nothing"

    @task
    def reschedule(self):
        with self.client.get("/json", catch_response=True, name="reschedule") as r:
            raise RescheduleTask()

    @task
    def left_alone(self):
        with self.client.get("/error/0", catch_response=True, name="left alone"):
            pass

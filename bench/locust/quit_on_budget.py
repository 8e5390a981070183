# args: -u 8 -r 8 -t 12s
# CI ends the test itself once its time budget is spent: runner.quit() from a task.
import time

from locust import HttpUser, constant, events, task

BUDGET = {"started": None}


@events.test_start.add_listener
def remember_start(environment, **kwargs):
    BUDGET["started"] = time.time()


class Budgeted(HttpUser):
    wait_time = constant(0.2)

    @task
    def work(self):
        self.client.get("/json", name="budgeted")
        if time.time() - BUDGET["started"] > 4:
            self.environment.runner.quit()

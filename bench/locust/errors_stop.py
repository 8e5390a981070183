# args: -u 10 -r 10 -t 8s
# Errors as they happen in team code: a KeyError in a task, a retry by RescheduleTask, users that stop
# themselves after a number of iterations.
from locust import HttpUser, constant, task
from locust.exception import RescheduleTask, StopUser


class Flaky(HttpUser):
    wait_time = constant(0.1)

    def on_start(self):
        self.iterations = 0

    @task(3)
    def read(self):
        self.iterations += 1
        if self.iterations > 25:
            raise StopUser()
        data = self.client.get("/json").json()
        if self.iterations % 5 == 0:
            print(data["missing_key"])

    @task(1)
    def retry(self):
        r = self.client.get("/error/0", name="maybe")
        if r.json()["result"] < 0:
            raise RescheduleTask()

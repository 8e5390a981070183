# A TaskSet's own wait_time overrides its user's; a user without wait_time on a set with one.
from locust import HttpUser, TaskSet, constant, task


class Quick(TaskSet):
    wait_time = constant(0.1)

    @task(5)
    def quick(self):
        self.client.get("/json", name="set quick")

    @task
    def leave(self):
        self.interrupt()


class Mixed(HttpUser):
    wait_time = constant(0.5)
    tasks = {Quick: 1}

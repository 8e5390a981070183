# A task raising StopUser after its third request; InterruptTaskSet inside a set; a stopped user's on_stop.
from locust import HttpUser, TaskSet, constant, task
from locust.exception import InterruptTaskSet, StopUser


class Inner(TaskSet):
    @task
    def inner(self):
        self.client.get("/json", name="inner")
        raise InterruptTaskSet(reschedule=False)


class Quitter(HttpUser):
    wait_time = constant(0.1)
    tasks = {Inner: 1}

    def on_start(self):
        self.sent = 0

    @task(2)
    def count(self):
        self.sent += 1
        self.client.get("/", name="count")
        if self.sent >= 3:
            raise StopUser()

    def on_stop(self):
        self.client.get("/", name="on_stop")

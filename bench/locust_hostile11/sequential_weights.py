# A SequentialTaskSet whose @task weights repeat a step, with a list of tasks; it loops until interrupted.
from locust import HttpUser, SequentialTaskSet, constant, task


def extra(ts):
    ts.client.get("/", name="c extra")


class Flow(SequentialTaskSet):
    def on_start(self):
        self.rounds = 0

    @task(2)
    def first(self):
        self.client.get("/json", name="a first x2")

    @task
    def second(self):
        self.client.get("/", name="b second")

    tasks = [extra]

    @task
    def last(self):
        self.rounds += 1
        self.client.get("/json", name="d last")
        if self.rounds == 3:
            self.interrupt()


class Walker(HttpUser):
    wait_time = constant(0.1)
    tasks = [Flow]

# A flow of slow steps stopped at -t: with --stop-timeout, each user finishes its task set's round first.
from locust import HttpUser, SequentialTaskSet, constant, task


class Flow(SequentialTaskSet):
    @task
    def first(self):
        self.client.get("/sleep?ms=300", name="first")

    @task
    def second(self):
        self.client.get("/sleep?ms=300", name="second")

    @task
    def third(self):
        self.client.get("/sleep?ms=300", name="third")


class Slow(HttpUser):
    wait_time = constant(0.5)
    tasks = [Flow]

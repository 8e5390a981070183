# A SequentialTaskSet that leaves at its last step, beside a plain task of the user.
from locust import HttpUser, SequentialTaskSet, constant, task


class Flow(SequentialTaskSet):
    @task
    def one(self):
        self.client.get("/json", name="flow 1")

    @task
    def two(self):
        self.client.get("/json", name="flow 2")

    @task
    def done(self):
        self.client.get("/", name="flow done")
        self.interrupt()


class Visitor(HttpUser):
    wait_time = constant(0.1)
    tasks = {Flow: 1}

    @task(2)
    def browse(self):
        self.client.get("/", name="browse")

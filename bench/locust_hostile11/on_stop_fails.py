# on_stop raises after its request; a TaskSet's on_stop raises too. Exit code and counts as Locust's.
from locust import HttpUser, TaskSet, constant, task


class Area(TaskSet):
    @task
    def inside(self):
        self.client.get("/json", name="inside")

    def on_stop(self):
        self.client.get("/", name="area stop")
        raise KeyError("missing")


class Leaver(HttpUser):
    wait_time = constant(0.3)
    tasks = [Area]

    def on_stop(self):
        self.client.get("/", name="user stop")
        raise RuntimeError("cleanup failed")

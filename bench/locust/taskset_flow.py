# args: -u 60 -r 60 -t 15s
# A TaskSet the user enters and leaves with interrupt(), beside a task of its own.
from locust import HttpUser, TaskSet, task, constant


class Catalog(TaskSet):
    @task(3)
    def listing(self):
        self.client.get("/json", name="catalog")

    @task(1)
    def leave(self):
        self.interrupt()


class Visitor(HttpUser):
    wait_time = constant(0.5)
    tasks = {Catalog: 2}

    @task(1)
    def home(self):
        self.client.get("/", name="home")

# @tag on tasks and on a TaskSet; run with --tags and --exclude-tags together.
from locust import HttpUser, TaskSet, constant, tag, task


@tag("api")
class Orders(TaskSet):
    @task
    def list_orders(self):
        self.client.get("/json", name="orders")

    @tag("slow")
    @task
    def report(self):
        self.client.get("/sleep?ms=300", name="orders report")

    @task
    def done(self):
        self.interrupt()


class Client(HttpUser):
    wait_time = constant(0.2)
    tasks = [Orders]

    @tag("api", "smoke")
    @task
    def ping(self):
        self.client.get("/", name="ping")

    @tag("web")
    @task
    def page(self):
        self.client.get("/home", name="page")

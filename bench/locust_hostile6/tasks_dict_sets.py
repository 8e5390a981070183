# tasks as a dict mixing a TaskSet and a function; the set leaves with interrupt(reschedule=False).
from locust import HttpUser, TaskSet, constant, task


def landing(user):
    user.client.get("/", name="landing")


class Catalog(TaskSet):
    def on_start(self):
        self.seen = 0

    @task(3)
    def item(self):
        self.seen += 1
        self.client.get(f"/fib/{self.seen % 5}", name="/fib/[n]")

    @task
    def leave(self):
        self.interrupt(reschedule=False)


class Shopper(HttpUser):
    wait_time = constant(0.1)
    tasks = {Catalog: 3, landing: 1}

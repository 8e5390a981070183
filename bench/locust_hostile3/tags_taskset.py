# --tags naming a tag of a TaskSet class: its tasks run, untagged ones of the user do not.
from locust import HttpUser, TaskSet, constant, tag, task


@tag("checkout")
class Checkout(TaskSet):
    @task
    def cart(self):
        self.client.get("/json", name="cart")

    @task
    def back(self):
        self.interrupt()


class Shopper(HttpUser):
    wait_time = constant(0.2)
    tasks = {Checkout: 2}

    @task
    def browse(self):
        self.client.get("/", name="browse")

    @tag("checkout")
    @task
    def direct(self):
        self.client.get("/fib/6", name="direct")

# Tags on TaskSet classes and on their tasks; CI picks with --tags and leaves some out with --exclude-tags.
from locust import HttpUser, TaskSet, constant, tag, task


@tag("checkout")
class Checkout(TaskSet):
    @task
    def basket(self):
        self.client.get("/json", name="basket")

    @tag("payment")
    @task
    def pay(self):
        self.client.post("/echo", json={"amount": 10}, name="pay")

    @tag("slow")
    @task
    def receipt(self):
        self.client.get("/sleep?ms=200", name="receipt")

    @task
    def leave(self):
        self.interrupt()


class Search(TaskSet):
    @tag("checkout")
    @task
    def suggest(self):
        self.client.get("/", name="suggest")

    @task
    def full_search(self):
        self.client.get("/user", name="full search")

    @tag("checkout")
    @task
    def back(self):
        self.interrupt()


class Customer(HttpUser):
    wait_time = constant(0.1)
    tasks = [Checkout, Search]

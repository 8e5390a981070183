# A retail team's flows: a SequentialTaskSet that interrupts itself, and TaskSets in a User's tasks by weight.
from locust import HttpUser, SequentialTaskSet, TaskSet, constant, task


class Checkout(SequentialTaskSet):
    @task
    def cart(self):
        self.client.get("/json", name="cart")

    @task
    def pay(self):
        self.client.post("/echo", json={"paid": True}, name="pay")

    @task
    def done(self):
        self.client.get("/", name="receipt")
        self.interrupt()


class Browse(TaskSet):
    @task(3)
    def item(self):
        self.client.get("/fib/7", name="item")

    @task
    def leave(self):
        self.interrupt(reschedule=False)


def ping(user):
    user.client.get("/", name="ping")


class Shopper(HttpUser):
    wait_time = constant(0.05)
    tasks = {Browse: 3, Checkout: 1, ping: 1}

# args: -u 20 -r 20 -t 12s
# Checkout as a SequentialTaskSet inside a browsing TaskSet; leaving both without a wait (reschedule=False).
from locust import HttpUser, SequentialTaskSet, TaskSet, constant, task


class Checkout(SequentialTaskSet):
    @task
    def cart(self):
        self.client.post("/echo", json={"step": "cart"}, name="checkout cart")

    @task
    def pay(self):
        self.client.post("/echo", json={"step": "pay"}, name="checkout pay")

    @task
    def done(self):
        self.client.get("/json", name="checkout done")
        self.interrupt(reschedule=False)


class Browse(TaskSet):
    tasks = {Checkout: 1}

    @task(3)
    def listing(self):
        self.client.get("/", name="listing")

    @task
    def leave(self):
        self.interrupt(reschedule=False)


class Shopper(HttpUser):
    wait_time = constant(0.3)
    tasks = [Browse]

    @task
    def home(self):
        self.client.get("/home", name="home")

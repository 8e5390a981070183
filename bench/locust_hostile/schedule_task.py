# args: -u 4 -r 4 -t 8s
# Task sets steering themselves: schedule_task (first=True), interrupt() in a sequence, and
# InterruptTaskSet raised from a nested set's on_start.
from locust import HttpUser, SequentialTaskSet, TaskSet, constant, task
from locust.exception import InterruptTaskSet


class Closed(TaskSet):
    def on_start(self):
        self.client.get("/", name="closed probe")
        raise InterruptTaskSet(reschedule=False)

    @task
    def never(self):
        self.client.get("/never", name="never")


class Checkout(SequentialTaskSet):
    @task
    def cart(self):
        self.client.get("/json", name="cart")

    @task
    def pay(self):
        self.client.post("/echo", data="pay", name="pay")
        self.interrupt()

    @task
    def receipt(self):
        self.client.get("/never", name="receipt never")


class Browse(TaskSet):
    @task
    def page(self):
        self.client.get("/user", name="page")
        self.schedule_task(self.urgent, first=True)

    def urgent(self):
        self.client.get("/fib/5", name="urgent")

    @task
    def leave(self):
        self.interrupt()


class Visitor(HttpUser):
    wait_time = constant(0.5)
    tasks = [Browse, Checkout, Closed]

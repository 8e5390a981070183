# A nested TaskSet with @task on the class, leaving by interrupt(reschedule=False).
from locust import HttpUser, TaskSet, constant, task


class Checkout(TaskSet):
    @task(2)
    def cart(self):
        self.client.get("/json", name="checkout cart")

    @task
    def leave(self):
        self.client.get("/", name="checkout leave")
        self.interrupt(reschedule=False)


class Browse(TaskSet):
    @task(3)
    def list(self):
        self.client.get("/fib/8", name="browse list")

    @task
    class Nested(Checkout):
        pass

    @task
    def out(self):
        self.interrupt()


class Visitor(HttpUser):
    wait_time = constant(0.2)
    tasks = [Browse]

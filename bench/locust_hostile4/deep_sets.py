# Three levels of task sets: the innermost leaves with interrupt(reschedule=False), the middle one by
# interrupt() after a count kept on its parent; each set has a wait_time of its own.
from locust import HttpUser, TaskSet, between, constant, task


class Details(TaskSet):
    wait_time = constant(0.05)

    @task(3)
    def spec(self):
        self.client.get("/json", name="details: spec")

    @task
    def back(self):
        self.interrupt(reschedule=False)


class Category(TaskSet):
    wait_time = constant(0.1)
    tasks = {Details: 2}

    def on_start(self):
        self.seen = 0

    @task
    def listing(self):
        self.seen += 1
        self.client.get("/", name="category: list")
        if self.seen >= 3:
            self.interrupt()


class Visitor(HttpUser):
    wait_time = between(0.1, 0.2)
    tasks = [Category]

    @task
    def front(self):
        self.client.get("/static/news.html", name="front page")

# args: -u 40 -r 40 -t 15s
# A TaskSet class with @task(n) weight inside a user's tasks dict, reaching self.user and self.parent.
from locust import HttpUser, TaskSet, constant_pacing, task


@task(2)
class Catalog(TaskSet):
    def on_start(self):
        self.page = 0

    @task(4)
    def page_view(self):
        self.page += 1
        self.client.get(f"/fib/{self.page % 10}", name="catalog page")
        self.user.pages_seen += 1

    @task(1)
    def leave(self):
        self.parent.left += 1
        self.interrupt()


def ping(user):
    user.client.get("/", name="ping")


class Visitor(HttpUser):
    wait_time = constant_pacing(0.25)
    tasks = {Catalog: 3, ping: 1}

    def on_start(self):
        self.pages_seen = 0
        self.left = 0

    def on_stop(self):
        self.client.get("/json", name=f"bye {min(self.left, 1)}")

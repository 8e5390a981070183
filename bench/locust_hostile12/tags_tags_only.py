# --tags api smoke: a task with both tags once, a set tagged as a whole, an untagged task never.
from locust import HttpUser, TaskSet, constant, tag, task


@tag("api")
class Api(TaskSet):
    @task
    def items(self):
        self.client.get("/json", name="api items")
        self.interrupt()


class Tagged(HttpUser):
    wait_time = constant(0.1)
    tasks = [Api]

    @tag("smoke", "api")
    @task
    def both(self):
        self.client.get("/", name="both tags")

    @tag("web")
    @task
    def web(self):
        self.client.get("/", name="web")

    @task
    def untagged(self):
        self.client.get("/", name="untagged")

# The same file under --exclude-tags web only: untagged tasks run, the set runs but its slow task.
from locust import HttpUser, TaskSet, constant, tag, task


@tag("api")
class Api(TaskSet):
    @task
    def items(self):
        self.client.get("/json", name="api items")

    @tag("slow")
    @task
    def report(self):
        self.client.get("/sleep?ms=50", name="api report")

    @task
    def out(self):
        self.interrupt()


class Tagged(HttpUser):
    wait_time = constant(0.2)
    tasks = [Api]

    @tag("api", "slow")
    @task
    def slow_api(self):
        self.client.get("/sleep?ms=50", name="slow api")

    @tag("web")
    @task
    def page(self):
        self.client.get("/", name="web page")

    @task
    def untagged(self):
        self.client.get("/", name="untagged")

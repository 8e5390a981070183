# Tags on a whole TaskSet and on tasks of two user classes; run with --tags api --exclude-tags slow: the
# class left with no task still runs, each of its tasks an exception, as Locust warns and runs it.
from locust import HttpUser, TaskSet, constant, tag, task


@tag("api")
class Api(TaskSet):
    @task
    def items(self):
        self.client.get("/json", name="api items")

    @tag("slow")
    @task
    def report(self):
        self.client.get("/user?delayMs=200", name="api report")


class Integrator(HttpUser):
    wait_time = constant(0.2)
    tasks = [Api]

    @task
    def untagged(self):
        self.client.get("/", name="untagged")


class Browser(HttpUser):
    wait_time = constant(0.2)

    @tag("web")
    @task
    def page(self):
        self.client.get("/static/news.html", name="web page")

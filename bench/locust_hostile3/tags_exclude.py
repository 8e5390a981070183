# @tag on tasks, run with --exclude-tags: the slow and the admin ones are left out.
from locust import HttpUser, constant, tag, task


class Api(HttpUser):
    wait_time = constant(0.2)

    @tag("read")
    @task(3)
    def read(self):
        self.client.get("/json", name="read")

    @tag("slow", "read")
    @task
    def slow(self):
        self.client.get("/sleep?ms=200", name="slow")

    @tag("admin")
    @task
    def admin(self):
        self.client.get("/nonexistent", name="admin")

    @task
    def untagged(self):
        self.client.get("/", name="untagged")

# args: -u 9 -r 9 -t 8s --tags api admin --exclude-tags slow
# Three user classes (one fixed, two weighted 3:1) and tags across their tasks.
from locust import HttpUser, TaskSet, constant, tag, task


class Admin(HttpUser):
    fixed_count = 1
    wait_time = constant(0.5)

    @tag("admin")
    @task
    def audit(self):
        self.client.get("/fib/10", name="audit")

    @tag("admin", "slow")
    @task
    def export(self):
        self.client.get("/sleep?ms=100", name="export")


class Reader(HttpUser):
    weight = 3
    wait_time = constant(0.5)

    @tag("api")
    @task(2)
    def read(self):
        self.client.get("/json", name="read")

    @task
    def untagged(self):
        self.client.get("/", name="untagged")


@tag("api")
class Orders(TaskSet):
    @task
    def order(self):
        self.client.post("/echo", json={"o": 1}, name="order")

    @tag("slow")
    @task
    def bulk(self):
        self.client.get("/sleep?ms=100", name="bulk")


class Writer(HttpUser):
    weight = 1
    wait_time = constant(0.5)
    tasks = [Orders]

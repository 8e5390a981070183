# A fixed-count admin beside weighted shoppers, tasks tagged, run with --tags and --exclude-tags.
from locust import HttpUser, constant, tag, task


class Admin(HttpUser):
    fixed_count = 1
    wait_time = constant(0.5)

    @tag("admin", "smoke")
    @task
    def audit(self):
        self.client.get("/json", name="audit")

    @tag("slow")
    @task
    def report(self):
        self.client.get("/sleep?ms=300", name="report")


class Shopper(HttpUser):
    weight = 3
    wait_time = constant(0.5)

    @tag("smoke")
    @task(2)
    def browse(self):
        self.client.get("/", name="browse")

    @task
    def untagged(self):
        self.client.get("/json", name="untagged")

    @tag("smoke", "slow")
    @task
    def checkout(self):
        self.client.post("/echo", json={"cart": 1}, name="checkout")

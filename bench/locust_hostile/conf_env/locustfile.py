# A locust.conf beside the file (read without --config) and LOCUST_* variables the CI sets over it.
from locust import HttpUser, between, tag, task


class Api(HttpUser):
    wait_time = between(0.5, 1)

    @tag("read")
    @task(3)
    def listing(self):
        self.client.get("/json", name="listing")

    @tag("write")
    @task
    def write(self):
        self.client.post("/echo", json={"k": 1}, name="write")

    @tag("slow")
    @task
    def slow(self):
        self.client.get("/sleep?ms=50", name="slow")

    @tag("read", "broken")
    @task
    def broken(self):
        self.client.get("/fib/999", name="broken")

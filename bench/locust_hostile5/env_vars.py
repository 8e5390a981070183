# Run from CI with LOCUST_* environment variables only; the tags too.
from locust import HttpUser, constant, tag, task


class Api(HttpUser):
    wait_time = constant(0.2)

    @tag("smoke")
    @task
    def health(self):
        self.client.get("/", name="health")

    @tag("smoke")
    @task(2)
    def data(self):
        self.client.get("/json", name="data")

    @tag("heavy")
    @task
    def heavy(self):
        self.client.get("/fib/25", name="heavy")

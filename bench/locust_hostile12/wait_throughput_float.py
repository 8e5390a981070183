# constant_throughput of a float below 1 and above; two classes weighted 1:1.
from locust import HttpUser, constant_throughput, task


class Slow(HttpUser):
    wait_time = constant_throughput(0.8)

    @task
    def slow(self):
        self.client.get("/json", name="slow tp")


class Fast(HttpUser):
    wait_time = constant_throughput(4.5)

    @task
    def fast(self):
        self.client.get("/json", name="fast tp")

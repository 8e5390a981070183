# args: -u 20 -r 20 -t 12s
# A pacing SLA: each user 4 tasks a second whatever the response time (constant_throughput).
from locust import HttpUser, constant_throughput, task


class Paced(HttpUser):
    wait_time = constant_throughput(4)

    @task(3)
    def read(self):
        self.client.get("/json", name="paced read")

    @task
    def slow(self):
        self.client.get("/sleep?ms=100", name="paced slow")

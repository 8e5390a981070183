# constant_throughput and constant_pacing: a task's rate kept whatever its time.
from locust import HttpUser, constant_pacing, constant_throughput, task


class Steady(HttpUser):
    wait_time = constant_throughput(2)

    @task
    def poll(self):
        self.client.get("/json", name="poll")


class Paced(HttpUser):
    wait_time = constant_pacing(1)

    @task
    def slow(self):
        self.client.get("/sleep?ms=300", name="paced slow")

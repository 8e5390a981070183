# A batch API's pacing: tasks that take longer than their pace run back to back, shorter ones wait the rest.
from locust import HttpUser, constant_pacing, constant_throughput, task


class SlowReport(HttpUser):
    # 0.5 task runs a second: each takes 1.2 s, so it waits 0.8 s.
    wait_time = constant_throughput(0.5)

    @task
    def report(self):
        self.client.get("/sleep?ms=1200", name="report")


class Overrun(HttpUser):
    # A 1 s pace with a 1.5 s task: no wait at all.
    wait_time = constant_pacing(1)

    @task
    def export(self):
        self.client.get("/sleep?ms=1500", name="export")

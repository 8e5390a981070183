# constant_pacing(0.5) whose task runs longer than the pacing: no wait at all then, as Locust's.
from locust import HttpUser, constant_pacing, task


class Overrun(HttpUser):
    wait_time = constant_pacing(0.5)

    def on_start(self):
        self.n = 0

    @task
    def work(self):
        self.n += 1
        ms = 800 if self.n % 2 == 0 else 100
        self.client.get(f"/sleep?ms={ms}", name=f"sleep {ms}")

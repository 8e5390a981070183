# Everything from LOCUST_* variables, as a container image runs it (no flags but the host).
from locust import FastHttpUser, constant_pacing, task


class Probe(FastHttpUser):
    wait_time = constant_pacing(0.5)

    @task
    def probe(self):
        self.client.get("/json", name="probe")

    @task
    def health(self):
        self.client.get("/", name="health")

# -u 3 -r 1.5: a float spawn rate; the last user starts at 1.33 s; on_start counts the users started.
from locust import HttpUser, constant, task


class Slowly(HttpUser):
    wait_time = constant(0.2)

    def on_start(self):
        self.client.get("/", name="started")

    @task
    def tick(self):
        self.client.get("/json", name="tick")

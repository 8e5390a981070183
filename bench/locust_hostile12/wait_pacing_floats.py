# constant_pacing with a float under a task of varying length; a class attribute wait of a module function.
from locust import HttpUser, constant_pacing, task


class Paced(HttpUser):
    wait_time = constant_pacing(0.35)

    @task(3)
    def short(self):
        self.client.get("/sleep?ms=20", name="short")

    @task
    def long(self):
        self.client.get("/sleep?ms=150", name="long")

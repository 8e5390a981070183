# on_start fails for every other user (a counter of the module): those users send nothing more.
from locust import HttpUser, constant, task

started = 0


class Fragile(HttpUser):
    wait_time = constant(0.25)

    def on_start(self):
        global started
        started += 1
        self.client.get("/", name="on_start")
        if started % 2 == 0:
            raise RuntimeError("login failed")

    @task
    def work(self):
        self.client.get("/json", name="work")

# on_start raising RescheduleTask: Locust's user logs it as an error and stops that user? or goes on.
from locust import HttpUser, constant, task
from locust.exception import RescheduleTask


class Rescheduled(HttpUser):
    wait_time = constant(0.2)

    def on_start(self):
        self.client.get("/", name="on_start")
        raise RescheduleTask()

    @task
    def work(self):
        self.client.get("/json", name="work")

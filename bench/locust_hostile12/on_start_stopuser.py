# on_start raising StopUser for every other user: those users stop, the others run their tasks.
import itertools

from locust import HttpUser, constant, task
from locust.exception import StopUser

COUNTER = itertools.count()


class Picky(HttpUser):
    wait_time = constant(0.2)

    def on_start(self):
        self.client.get("/", name="on_start")
        if next(COUNTER) % 2 == 1:
            raise StopUser()

    @task
    def work(self):
        self.client.get("/json", name="work")

    def on_stop(self):
        self.client.get("/", name="on_stop")

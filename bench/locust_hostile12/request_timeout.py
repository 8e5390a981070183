# timeout= shorter than the answer: a failure named by its request; a tuple (connect, read) timeout too.
from locust import HttpUser, constant, task


class Impatient(HttpUser):
    wait_time = constant(0.1)

    @task
    def waits(self):
        self.client.get("/sleep?ms=400", timeout=0.1, name="too slow")
        self.client.get("/sleep?ms=10", timeout=(1, 2), name="in time")

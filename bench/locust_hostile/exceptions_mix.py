# args: -u 6 -r 6 -t 8s
# Locust's exceptions where teams raise them: StopUser in on_start for some users, RescheduleTask,
# an own exception class, an exception inside a catch_response block.
from locust import HttpUser, constant, task
from locust.exception import RescheduleTask, StopUser


class QuotaExceeded(Exception):
    pass


class Client(HttpUser):
    wait_time = constant(0.5)
    made = 0

    def on_start(self):
        Client.made += 1
        self.n = Client.made
        self.client.get("/", name="start")
        if self.n % 3 == 0:
            raise StopUser()

    @task(2)
    def fetch(self):
        self.client.get("/json", name="fetch")

    @task
    def quota(self):
        r = self.client.get("/fib/20", name="quota")
        if r.json()["fib"] > 100:
            raise RescheduleTask()

    @task
    def own(self):
        self.client.get("/user", name="own")
        raise QuotaExceeded("over quota")

    @task
    def inside(self):
        with self.client.get("/json", catch_response=True, name="inside") as r:
            r.json()["missing"]

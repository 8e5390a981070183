# LOCUST_* variables only, the user classes picked by LOCUST_USER_CLASSES.
from locust import HttpUser, constant, task


class Reader(HttpUser):
    wait_time = constant(0.3)

    @task
    def read(self):
        self.client.get("/json", name="read")


class Writer(HttpUser):
    wait_time = constant(0.3)

    @task
    def write(self):
        self.client.post("/echo", json={"w": 1}, name="write")


class Auditor(HttpUser):
    wait_time = constant(0.3)

    @task
    def audit(self):
        self.client.get("/cpu?ms=3", name="audit")

# A second file of users, run beside users.py: -f users.py,writers.py.
from locust import HttpUser, constant, task


class Writer(HttpUser):
    wait_time = constant(0.4)
    weight = 2

    @task
    def write(self):
        self.client.post("/echo", json={"w": 1}, name="writer")

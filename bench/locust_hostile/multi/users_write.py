# Writers, the folder's other file.
from locust import HttpUser, constant, task


class Writer(HttpUser):
    wait_time = constant(0.5)

    @task
    def write(self):
        self.client.post("/echo", json={"w": 1}, name="write")

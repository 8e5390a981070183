# A second locustfile of the folder.
from locust import HttpUser, constant, task


class Buyer(HttpUser):
    wait_time = constant(0.4)

    @task
    def buy(self):
        self.client.post("/echo", json={"sku": 1}, name="buy")

# An HttpUser whose connections come from a pool of its own (urllib3's PoolManager), as requests' docs show.
from urllib3 import PoolManager

from locust import HttpUser, constant, task


class Pooled(HttpUser):
    pool_manager = PoolManager(maxsize=10, block=True)
    wait_time = constant(0.25)

    @task
    def home(self):
        self.client.get("/", name="home")

    @task
    def data(self):
        self.client.get("/json", name="data")

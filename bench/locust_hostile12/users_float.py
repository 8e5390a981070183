# -u 2.5: Locust's -u is an int, so its argument parser refuses it before any load.
from locust import HttpUser, constant, task


class Anyone(HttpUser):
    wait_time = constant(0.2)

    @task
    def tick(self):
        self.client.get("/", name="tick")

# Ids grouped under one name, failures taken back with success(), and URLs built from base_url.
import random

from locust import HttpUser, constant, task


class Catalog(HttpUser):
    wait_time = constant(0.1)

    @task(2)
    def item(self):
        item_id = random.randint(1, 1000)
        self.client.get(f"/validate?id={item_id}&name=widget{item_id}", name="/validate?id=[id]")

    @task
    def flaky(self):
        with self.client.get("/error/1", catch_response=True, name="flaky") as resp:
            resp.failure("server error")
            if resp.status_code == 500:
                resp.success()

    @task
    def absolute(self):
        self.client.get(f"{self.client.base_url}/json", name="absolute")

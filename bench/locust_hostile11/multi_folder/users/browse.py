# A folder given to -f: each .py file in it is a locustfile of the run.
from locust import HttpUser, constant, task


class Browser(HttpUser):
    wait_time = constant(0.4)

    @task
    def page(self):
        self.client.get("/", name="browse")

# args: -u 4 -r 4 -t 8s -i 20
# locust-plugins' iteration limit, as teams copy it from its README.
from locust import HttpUser, constant, task


class Limited(HttpUser):
    wait_time = constant(0.1)

    @task
    def one(self):
        self.client.get("/json", name="limited")

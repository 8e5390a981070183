# args: -u 8 -r 4 -t 8s --csv-full-history
# Nightly job keeping Locust's full CSV history.
from locust import HttpUser, constant, task


class Nightly(HttpUser):
    wait_time = constant(0.5)

    @task(2)
    def home(self):
        self.client.get("/")

    @task
    def missing(self):
        self.client.get("/nightly-report", name="missing report")

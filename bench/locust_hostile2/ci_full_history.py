# A CI job that parses --csv files, per-name history included (--csv-full-history).
from locust import HttpUser, between, task


class Shopper(HttpUser):
    wait_time = between(0.2, 0.4)

    @task(4)
    def catalog(self):
        self.client.get("/json", name="catalog")

    @task
    def product(self):
        self.client.get("/fib/12", name="product")

    @task
    def gone(self):
        self.client.get("/static/missing.css", name="gone")

# args: -u 60 -r 60 -t 15s
# Two user classes by weight: readers browse, writers post; each names its requests.
from locust import HttpUser, task, constant, between


class Reader(HttpUser):
    weight = 3
    wait_time = constant(0.5)

    @task
    def news(self):
        self.client.get("/news", name="news")

    @task
    def home(self):
        self.client.get("/", name="reader home")


class Writer(HttpUser):
    weight = 1
    wait_time = between(0.4, 0.6)

    @task
    def write(self):
        self.client.post("/echo", json={"title": "hello", "body": "x" * 200}, name="write")

# A shop's load test found through pyproject.toml's [tool.locust].
from locust import HttpUser, between, tag, task


class Shop(HttpUser):
    wait_time = between(0.05, 0.1)

    @tag("web")
    @task(2)
    def front(self):
        self.client.get("/", name="front")

    @tag("web", "api")
    @task
    def catalog(self):
        self.client.get("/json", name="catalog")

    @tag("admin")
    @task
    def admin(self):
        self.client.get("/nonexistent", name="admin")

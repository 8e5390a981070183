# An abstract base holds the login and a helper; two weighted users extend it.
from locust import HttpUser, between, task


class ApiUser(HttpUser):
    abstract = True
    wait_time = between(0.1, 0.3)

    def on_start(self):
        r = self.client.post("/login", json={"user": self.username, "password": "secret"}, name="login")
        self.token = r.json().get("token", "")

    def me(self, label):
        self.client.get("/me", headers={"Authorization": f"Bearer {self.token}"}, name=label)


class Admin(ApiUser):
    weight = 1
    username = "admin"

    @task
    def audit(self):
        self.me("admin me")


class Customer(ApiUser):
    weight = 3
    username = "customer"

    @task(2)
    def browse(self):
        self.client.get("/json", name="browse")

    @task
    def profile(self):
        self.me("customer me")

# args: -u 60 -r 60 -t 15s
# Log in once per user (token and session cookie), then browse with both.
from locust import HttpUser, task, between


class Shopper(HttpUser):
    wait_time = between(0.4, 0.6)

    def on_start(self):
        response = self.client.post("/login", json={"user": "alice", "password": "secret"})
        self.token = response.json()["token"]

    @task(3)
    def home(self):
        self.client.get("/home")

    @task(2)
    def profile(self):
        self.client.get("/me", headers={"Authorization": f"Bearer {self.token}"}, name="/me")

    @task(1)
    def user(self):
        self.client.get("/user")

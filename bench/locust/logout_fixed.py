# args: -u 9 -r 9 -t 8s
# One admin (fixed_count) beside weighted shoppers; everyone logs in on start and out on stop.
from locust import HttpUser, between, task


class LoggedIn(HttpUser):
    abstract = True
    wait_time = between(0.3, 0.5)

    def on_start(self):
        r = self.client.post("/login", json={"user": self.__class__.__name__.lower(), "password": "secret"})
        self.token = r.json()["token"]

    def on_stop(self):
        self.client.post("/echo", json={"logout": self.token}, name="logout")


class Admin(LoggedIn):
    fixed_count = 1

    @task
    def me(self):
        self.client.get("/me", headers={"Authorization": f"Bearer {self.token}"}, name="admin me")


class Shopper(LoggedIn):
    weight = 3

    @task
    def browse(self):
        self.client.get("/home", name="shop home")

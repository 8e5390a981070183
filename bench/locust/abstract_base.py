# args: -u 24 -r 24 -t 12s --exit-code-on-error 3
# Two user types sharing an abstract base (its login and helpers); a failing admin call, and the exit
# code CI expects on any error set by --exit-code-on-error.
from locust import HttpUser, between, task


class BaseUser(HttpUser):
    abstract = True
    wait_time = between(0.3, 0.5)
    role = "base"

    def on_start(self):
        r = self.client.post("/login", json={"user": self.role, "password": "secret"}, name="login")
        self.token = r.json()["token"]

    def auth(self):
        return {"Authorization": f"Bearer {self.token}"}


class Reader(BaseUser):
    weight = 3
    role = "reader"

    @task
    def read(self):
        self.client.get("/me", headers=self.auth(), name=f"{self.role} me")


class Admin(BaseUser):
    weight = 1
    role = "admin"

    @task(2)
    def audit(self):
        self.client.get("/json", headers=self.auth(), name="audit")

    @task(1)
    def purge(self):
        self.client.delete("/items/42", headers=self.auth(), name="purge")

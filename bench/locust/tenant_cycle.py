# args: -u 12 -r 12 -t 16s --tags read
# Tenants handed out in turn with itertools.cycle, cookies per user, tagged tasks.
import itertools

from locust import HttpUser, between, tag, task

TENANTS = itertools.cycle(["acme", "globex", "initech"])


class TenantUser(HttpUser):
    wait_time = between(0.1, 0.2)

    def on_start(self):
        self.tenant = next(TENANTS)
        self.client.cookies.set("tenant", self.tenant)
        r = self.client.post("/login", json={"user": self.tenant, "password": "secret"})
        self.token = r.json()["token"]

    @tag("read")
    @task(3)
    def me(self):
        self.client.get("/me", headers={"Authorization": "Bearer " + self.token}, name="me")

    @tag("read")
    @task(1)
    def home(self):
        self.client.get("/home")

    @tag("write")
    @task(2)
    def echo(self):
        self.client.post("/echo", json={"tenant": self.tenant})

# URLs with ids grouped by name=, a cookie set on the session and read back, env defaults by os.getenv.
import os
import random

from locust import HttpUser, between, task

MAX_ID = int(os.getenv("MAX_ID", "20"))
REGION = os.environ.get("REGION", "eu")


class Visitor(HttpUser):
    wait_time = between(0.1, 0.2)

    def on_start(self):
        self.client.cookies.set("region", REGION)
        r = self.client.post("/login", json={"user": "v", "password": "secret"}, name="login")
        self.token = r.json()["token"]

    @task(3)
    def item(self):
        item_id = random.randint(1, MAX_ID)
        self.client.get(f"/fib/{item_id}?region={self.client.cookies.get('region')}", name="/fib/[id]")

    @task
    def me(self):
        with self.client.get("/me", headers={"Authorization": "Bearer " + self.token},
                             catch_response=True, name="me") as r:
            if "session" not in self.client.cookies:
                r.failure("no session cookie")

# args: -u 20 -r 20 -t 16s
# A platform team's API test: credentials from the environment, a login per user whose token goes into
# the session's headers, ids picked from a list built at import, dated queries, grouped names.
import os
import random
from datetime import datetime, timedelta

from locust import HttpUser, between, task

API_USER = os.getenv("API_USER", "perf-bot")
API_PASSWORD = os.environ.get("API_PASSWORD", "secret")
ITEM_IDS = [i for i in range(1, 50) if i % 7 != 0]


class ApiUser(HttpUser):
    wait_time = between(0.1, 0.3)

    def on_start(self):
        with self.client.post("/login", json={"user": API_USER, "password": API_PASSWORD},
                              catch_response=True) as resp:
            if resp.status_code != 200:
                resp.failure(f"login failed: {resp.status_code}")
                return
            self.token = resp.json().get("token")
        self.client.headers.update({"Authorization": f"Bearer {self.token}", "Accept": "application/json"})

    @task(2)
    def get_item(self):
        item_id = random.choice(ITEM_IDS)
        self.client.get(f"/fib/{item_id % 20}", name="/fib/[n]")

    @task(1)
    def whoami(self):
        self.client.get("/me")

    @task(1)
    def recent(self):
        since = (datetime.utcnow() - timedelta(days=7)).strftime("%Y-%m-%d")
        self.client.get("/json", params={"since": since, "limit": 20}, name="/json?since")

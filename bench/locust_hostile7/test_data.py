# A QA team's accounts: random.choices by weight, uuid4 ids, json.dumps(sort_keys=True), ISO dates,
# itertools.cycle over endpoints.
import itertools
import json
import random
import uuid
from datetime import datetime

from locust import HttpUser, between, task

PLANS = ["free", "pro", "team"]
ENDPOINTS = itertools.cycle(["/json", "/fib/6", "/"])


class Signup(HttpUser):
    wait_time = between(0.05, 0.15)

    @task(3)
    def signup(self):
        plan = random.choices(PLANS, weights=[6, 3, 1], k=1)[0]
        body = json.dumps({"plan": plan, "id": str(uuid.uuid4()), "at": datetime.now().isoformat()}, sort_keys=True)
        with self.client.post("/echo", data=body, headers={"Content-Type": "application/json"},
                              name="signup", catch_response=True) as r:
            echoed = r.json()
            if list(echoed) != sorted(echoed) or len(echoed["id"]) != 36:
                r.failure(f"unsorted or bad id: {list(echoed)}")

    @task
    def browse(self):
        self.client.get(next(ENDPOINTS), name="cycle")

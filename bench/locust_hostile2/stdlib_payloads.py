# Payloads built with json, random, uuid and datetime as teams build them.
import json
import random
import uuid
from datetime import datetime, timedelta, timezone

from locust import HttpUser, between, task

SKUS = ["A-1", "B-2", "C-3", "D-4"]


class Orders(HttpUser):
    wait_time = between(0.2, 0.4)

    @task(3)
    def order(self):
        now = datetime.now(timezone.utc)
        body = {
            "id": str(uuid.uuid4()),
            "ref": uuid.uuid4().hex[:8],
            "items": random.sample(SKUS, k=2),
            "qty": random.choices([1, 2, 5], weights=[6, 3, 1])[0],
            "due": (now + timedelta(days=3)).isoformat(),
            "day": now.strftime("%Y-%m-%d"),
        }
        with self.client.post("/echo", data=json.dumps(body, sort_keys=True), catch_response=True,
                              headers={"Content-Type": "application/json"}, name="order") as r:
            got = json.loads(r.text)
            if got["id"] != body["id"] or len(got["items"]) != 2:
                r.failure("echo mismatch")

    @task
    def stamp(self):
        ts = int(datetime.utcnow().timestamp())
        self.client.get(f"/validate?id={ts % 100}&name=t{random.randint(1, 9)}", name="stamp")

# args: -u 10 -r 10 -t 10s
# A checkout TaskSet with its own waits, uuid and datetime payloads, and a call that times out.
import json
import random
import uuid
import datetime

from locust import HttpUser, TaskSet, between, events, task


class Checkout(TaskSet):
    wait_time = between(0.1, 0.2)

    def on_start(self):
        self.client.post("/login", json={"user": "u", "password": "secret"})

    @task
    def pay(self):
        payload = {"id": str(uuid.uuid4()), "at": datetime.datetime.now().isoformat()}
        r = self.client.post("/echo", json=payload, headers={"X-Request-ID": str(uuid.uuid4())}, verify=False)
        data = json.loads(r.text)
        try:
            assert data["id"] == payload["id"], "echo mismatch"
        except (ValueError, KeyError) as e:
            print(f"bad {e!r}")
        for i, (k, v) in enumerate(sorted(data.items())):
            if i > 5:
                break
        self.user.environment.runner.user_count
        self.interrupt()


class Shopper(HttpUser):
    wait_time = between(0.1, 0.3)
    network_timeout = 5.0
    tasks = [Checkout]

    @task
    def timeout(self):
        self.client.get("/sleep?ms=200", timeout=0.05, name="too slow")

# Weighted picks with random.choices, a data list walked with itertools.cycle, ids and encodings.
import base64
import itertools
import random
import uuid
from urllib.parse import urlencode

from locust import HttpUser, constant, task

USERS = ["alice", "bobby", "carol", "danny"]
ORDER = itertools.cycle(USERS)


class Mixed(HttpUser):
    wait_time = constant(0.2)

    @task
    def pick(self):
        path = random.choices(["/", "/json", "/nope"], weights=[5, 3, 2])[0]
        self.client.get(path, name=f"pick {path}")

    @task
    def query(self):
        name = next(ORDER)
        query = urlencode({"id": len(name), "name": name})
        self.client.get(f"/validate?{query}", name="validate cycle")

    @task
    def token(self):
        raw = f"{uuid.uuid4()}:{next(ORDER)}".encode()
        token = base64.b64encode(raw).decode()
        with self.client.post("/echo", data=token, name="token", catch_response=True) as r:
            if base64.b64decode(r.text).decode().split(":")[1] not in USERS:
                r.failure("token lost its user")

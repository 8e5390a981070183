# args: -u 10 -r 10 -t 16s
# Partner API calls signed as its gateway wants: HMAC of the body and a timestamp, Basic credentials.
import base64
import hashlib
import hmac
import json
import time
import uuid

from locust import HttpUser, constant, task

SECRET = b"partner-secret"
BASIC = base64.b64encode(b"partner:secret").decode("ascii")


def sign(body, ts):
    message = f"{ts}.{body}".encode("utf-8")
    return hmac.new(SECRET, message, hashlib.sha256).hexdigest()


class Partner(HttpUser):
    wait_time = constant(0.2)

    @task(3)
    def submit(self):
        payload = json.dumps({"order": str(uuid.uuid4()), "qty": 2})
        ts = str(int(time.time()))
        headers = {
            "Authorization": "Basic " + BASIC,
            "X-Timestamp": ts,
            "X-Signature": sign(payload, ts),
            "Content-Type": "application/json",
        }
        with self.client.post("/echo", data=payload, headers=headers, name="submit", catch_response=True) as r:
            echoed = r.json()
            if echoed.get("qty") != 2:
                r.failure("echo lost the quantity")
            elif len(headers["X-Signature"]) != 64:
                r.failure("bad signature length")

    @task(1)
    def checksum(self):
        r = self.client.get("/json", name="checksum")
        digest = hashlib.md5(r.content).hexdigest()
        if digest != hashlib.md5(r.text.encode()).hexdigest():
            print("checksum mismatch")

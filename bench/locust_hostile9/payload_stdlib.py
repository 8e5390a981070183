# Payloads signed and encoded with the standard library; names derived from a fixed input's hashes.
import base64
import hashlib
import json
import uuid
from datetime import datetime
from urllib.parse import quote, urlencode

from locust import HttpUser, constant, task

BODY = json.dumps({"b": 2, "a": [1, "x"], "c": None}, sort_keys=True)
DIGEST = hashlib.sha256(BODY.encode()).hexdigest()[:10]
TOKEN = base64.b64encode(b"user:secret").decode()


class Signer(HttpUser):
    wait_time = constant(0.25)

    @task
    def sign(self):
        req_id = str(uuid.uuid4())
        stamp = datetime.now().isoformat()
        self.client.post(
            "/echo",
            data=BODY,
            headers={"X-Request-Id": req_id, "X-Sent": stamp, "Authorization": f"Basic {TOKEN}"},
            name=f"echo {DIGEST} {len(req_id)} {'T' in stamp}",
        )
        query = urlencode({"id": 3, "name": "Zoë Smith"})
        self.client.get(f"/validate?{query}", name=f"validate {quote('a b/c')} {quote('a b/c', safe='')}")
        self.client.get("/", name=f"md5 {hashlib.md5(b'x').hexdigest()[:6]} {base64.urlsafe_b64decode(TOKEN)[:4]}")

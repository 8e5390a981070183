# A mobile API team's FastHttpUser: shared headers per call, rest() and rest_() blocks, a page that is not
# JSON read as JSON, and the client's own knobs (concurrency, insecure).
from locust import FastHttpUser, between, task

API_HEADERS = {"Accept": "application/json", "X-Client": "ios/5.2"}


class MobileApi(FastHttpUser):
    wait_time = between(0.05, 0.1)
    concurrency = 4
    insecure = True
    network_timeout = 5.0
    connection_timeout = 2.0

    @task(3)
    def profile(self):
        with self.rest("GET", "/json", headers=API_HEADERS, name="profile") as resp:
            if resp.js is None:
                pass
            elif "hello" in resp.js and resp.js["hello"] is None:
                resp.failure("hello is null")

    @task
    def landing_as_json(self):
        # The landing page is text: rest() marks the request failed when its body is not JSON.
        with self.rest("GET", "/", name="landing as json") as resp:
            pass

    @task
    def echo(self):
        with self.rest_("POST", "/echo", json={"sku": "A-1", "qty": 2}, headers={"X-Trace": "t1"}) as resp:
            if resp.js.get("qty") != 2:
                resp.failure(f"qty {resp.js.get('qty')}")

    @task
    def decode_failure(self):
        r = self.client.get("/", headers=API_HEADERS, name="plain decode")
        try:
            r.json()
        except Exception as e:
            self.client.get("/json", name=f"decode failed {type(e).__name__}")

# FastHttpUser with catch_response, a JSON body read, headers per request and a rest() call.
from locust import FastHttpUser, constant, task


class Api(FastHttpUser):
    wait_time = constant(0.1)

    @task(2)
    def read(self):
        with self.client.get("/json", headers={"Accept": "application/json"}, catch_response=True,
                             name="fast read") as r:
            if r.status_code != 200 or "message" not in r.json():
                r.failure(f"unexpected {r.status_code}")

    @task
    def post(self):
        with self.rest("POST", "/echo", json={"k": "v"}, name="fast rest") as r:
            if r.js["k"] != "v":
                r.failure("echo mismatch")

    @task
    def bad(self):
        self.client.get("/validate?id=1&name=x", name="fast 400")

# FastHttpUser.rest with r.js checks; a failure() after success() and a missing key.
from locust import FastHttpUser, constant, task


class Api(FastHttpUser):
    wait_time = constant(0.1)

    @task(2)
    def echo(self):
        with self.rest("POST", "/echo", json={"id": 7, "tags": ["a", "b"]}) as r:
            if r.js["id"] != 7:
                r.failure(f"id {r.js['id']}")
            elif len(r.js["tags"]) != 2:
                r.failure("tags")

    @task
    def missing_key(self):
        with self.rest("GET", "/json", name="json key") as r:
            if "no_such_key" not in r.js:
                r.failure("no_such_key missing")

    @task
    def flip(self):
        with self.client.get("/", catch_response=True, name="flip") as response:
            response.success()
            if "Hello" in response.text:
                response.failure("greeting found")

# catch_response: a failure then a success (the last word counts), and raise_for_status.
from locust import HttpUser, constant, task
from requests.exceptions import HTTPError


class Client(HttpUser):
    wait_time = constant(0.3)

    @task
    def recovered(self):
        with self.client.get("/static/x.png", catch_response=True, name="recovered") as r:
            if r.status_code == 404:
                r.failure("not found")
                r.success()

    @task
    def flipped(self):
        with self.client.get("/json", catch_response=True, name="flipped") as r:
            r.success()
            if "Hello" in r.text:
                r.failure("greeting in json")

    @task
    def strict(self):
        r = self.client.get("/validate?id=bad", name="strict")
        try:
            r.raise_for_status()
        except HTTPError as e:
            print(f"strict failed: {e.response.status_code}")

    @task
    def raising(self):
        self.client.get("/static/none.js", name="raising").raise_for_status()

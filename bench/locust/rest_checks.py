# args: -u 40 -r 40 -t 15s
# An API team's contract checks: FastHttpUser.rest() with asserts on the JSON, one endpoint that is not JSON.
from locust import FastHttpUser, task, constant


class ApiContract(FastHttpUser):
    wait_time = constant(0.5)

    @task(4)
    def catalog_is_json(self):
        with self.rest("GET", "/json") as resp:
            assert resp.js is not None, "catalog is not JSON"

    @task(2)
    def echo_round_trip(self):
        payload = {"sku": "A-1", "qty": 2}
        with self.rest("POST", "/echo", json=payload, name="echo") as resp:
            assert resp.js == payload, "echo changed the body"

    @task(1)
    def user_fields(self):
        with self.rest_("GET", "/user") as resp:
            assert resp.js.get("missing_field") is not None, "user has no missing_field,"

    @task(1)
    def home_is_not_json(self):
        with self.rest("GET", "/", name="home as json"):
            pass

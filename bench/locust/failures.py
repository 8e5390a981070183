# args: -u 60 -r 60 -t 15s
# Endpoints that fail as Locust counts failures: server errors, client errors, raise_for_status.
from locust import HttpUser, task, constant


class Breaker(HttpUser):
    wait_time = constant(0.5)

    @task(2)
    def server_error(self):
        self.client.get("/error/1", name="error")

    @task(2)
    def invalid(self):
        self.client.get("/validate", params={"id": "x", "name": "ab"}, name="validate bad")

    @task(2)
    def valid(self):
        self.client.get("/validate", params={"id": 7, "name": "alice"}, name="validate ok")

    @task(1)
    def raising(self):
        response = self.client.get("/missing", name="missing")
        if response.ok:
            response.raise_for_status()

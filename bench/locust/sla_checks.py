# args: -u 15 -r 15 -t 8s
# Response checks as QA writes them: JSON fields, a latency budget, the status, each a named failure.
from locust import HttpUser, constant_pacing, task


class Checker(HttpUser):
    wait_time = constant_pacing(0.25)

    @task(3)
    def fib(self):
        n = 18
        with self.client.get(f"/fib/{n}", name="fib", catch_response=True) as response:
            body = response.json()
            if response.elapsed.total_seconds() > 2:
                response.failure("too slow")
            elif body["fib"] != 2584:
                response.failure(f"wrong fib: {body['fib']}")
            else:
                response.success()

    @task(2)
    def user_roles(self):
        with self.client.get("/user", catch_response=True) as response:
            roles = response.json().get("roles", [])
            if "admin" not in roles:
                response.failure("not an admin")
            if response.headers.get("Content-Type", "").startswith("application/json") is False:
                response.failure("not JSON")

    @task(1)
    def invalid(self):
        with self.client.get("/validate", params={"id": "x"}, catch_response=True, name="validate") as response:
            if response.status_code == 400:
                response.success()
            else:
                response.failure(f"expected 400, got {response.status_code}")

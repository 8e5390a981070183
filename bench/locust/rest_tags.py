# args: -u 10 -r 10 -t 8s --tags smoke
# FastHttpUser.rest() checks, only the smoke-tagged ones run in CI.
from locust import FastHttpUser, constant, tag, task


class Smoke(FastHttpUser):
    wait_time = constant(0.25)

    @tag("smoke")
    @task(3)
    def json_message(self):
        with self.rest("GET", "/json") as resp:
            assert resp.js["message"].startswith("Hello"), "unexpected greeting"

    @tag("smoke", "user")
    @task
    def user_record(self):
        with self.rest("GET", "/user", name="user record") as resp:
            if "id" not in resp.js:
                resp.failure("no id")

    @tag("slow")
    @task
    def slow_page(self):
        self.client.get("/sleep?ms=50", name="slow")

    @task
    def untagged(self):
        self.client.get("/", name="untagged")

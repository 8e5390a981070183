# FastHttpUser's rest(): JSON in, checks on resp.js, failures by hand and by raise.
from locust import FastHttpUser, constant, task


class RestUser(FastHttpUser):
    wait_time = constant(0.3)

    @task(3)
    def user(self):
        with self.rest("GET", "/user") as resp:
            if resp.js is None:
                pass
            elif "name" not in resp.js:
                resp.failure(f"no name in {list(resp.js)}")

    @task
    def echo(self):
        with self.rest("POST", "/echo", json={"a": 1}) as resp:
            if resp.js["a"] != 1:
                resp.failure("echo lost a")

    @task
    def missing(self):
        with self.rest("GET", "/validate?id=zz", name="rest invalid") as resp:
            if resp.status_code == 400:
                resp.failure("validation rejected")

    @task
    def throws(self):
        with self.rest("GET", "/json", name="rest throws") as resp:
            assert resp.js["nope"] == 1

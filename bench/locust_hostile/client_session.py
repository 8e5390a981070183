# args: -u 5 -r 5 -t 8s
# The session configured as requests teams configure it: verify off, a header set by key, cookies updated,
# a (connect, read) timeout tuple, auth per request, ok/elapsed/raise_for_status read.
from locust import HttpUser, constant, task


class Portal(HttpUser):
    wait_time = constant(0.5)

    def on_start(self):
        self.client.verify = False
        self.client.headers["X-Client"] = "load"
        self.client.cookies.update({"theme": "dark"})
        r = self.client.post("/login", json={"user": "amy", "password": "secret"}, name="login")
        self.client.headers["Authorization"] = "Bearer " + r.json()["token"]

    @task(2)
    def me(self):
        r = self.client.get("/me", timeout=(3.05, 27), name="me")
        if not r.ok or r.elapsed.total_seconds() > 5:
            raise RuntimeError("slow or bad me")

    @task
    def basic(self):
        r = self.client.get("/json", auth=("amy", "secret"), name="basic")
        r.raise_for_status()

    @task
    def missing(self):
        r = self.client.get("/static/nope.css", name="missing")
        try:
            r.raise_for_status()
        except Exception as e:
            self.last_error = str(e)

# Headers and cookies on the client: login's cookie kept, a bearer header set on client.headers, a cookie
# set by hand, one cleared.
from locust import HttpUser, constant, task


class Session(HttpUser):
    wait_time = constant(0.25)

    def on_start(self):
        r = self.client.post("/login", json={"user": "ann", "password": "secret"}, name="login")
        self.client.headers.update({"Authorization": f"Bearer {r.json()['token']}"})
        self.client.headers["X-Team"] = "perf"

    @task(3)
    def me(self):
        self.client.get("/me", name="me")

    @task
    def without_cookie(self):
        saved = self.client.cookies.get("session")
        self.client.cookies.clear()
        self.client.get("/me", name="me no cookie")
        self.client.cookies.set("session", saved)

    @task
    def per_request(self):
        self.client.get("/me", cookies={"session": "forged"}, name="me forged")

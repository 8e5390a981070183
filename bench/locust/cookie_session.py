# args: -u 20 -r 20 -t 12s
# A web team's login: the session cookie kept in the client's jar, the token in a header, a logout that
# clears the jar and checks /me is refused after it.
from locust import HttpUser, between, task


class Member(HttpUser):
    wait_time = between(0.3, 0.6)

    def on_start(self):
        self.login()

    def login(self):
        r = self.client.post("/login", json={"user": "ada", "password": "secret"}, name="login")
        self.client.headers["Authorization"] = "Bearer " + r.json()["token"]
        if "session" not in self.client.cookies:
            raise RuntimeError("no session cookie")

    @task(5)
    def me(self):
        with self.client.get("/me", name="me", catch_response=True) as r:
            if r.json().get("user") != "ada":
                r.failure("not ada: " + r.text)

    @task(1)
    def relogin(self):
        self.client.cookies.clear()
        with self.client.get("/me", name="me without cookie", catch_response=True) as r:
            if r.status_code == 401:
                r.success()
            else:
                r.failure(f"expected 401, got {r.status_code}")
        self.login()

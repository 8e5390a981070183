# on_start logs in and puts the token into the session's default headers; tasks then call /me bare.
from locust import HttpUser, between, task


class Member(HttpUser):
    wait_time = between(0.1, 0.2)

    def on_start(self):
        response = self.client.post("/login", json={"user": "member", "password": "secret"})
        response.raise_for_status()
        self.client.headers.update({"Authorization": f"Bearer {response.json()['token']}"})

    @task(3)
    def me(self):
        self.client.get("/me", name="me")

    @task
    def logout_like(self):
        # A request without the session's headers: a fresh dict replaces them for this call only.
        self.client.get("/me", headers={"Authorization": "Bearer nope"}, name="me (bad token)")

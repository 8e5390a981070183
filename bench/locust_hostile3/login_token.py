# on_start logs in and keeps a token from the answer; every task sends it.
from locust import HttpUser, between, task


class Member(HttpUser):
    wait_time = between(0.1, 0.3)

    def on_start(self):
        r = self.client.post("/echo", json={"token": "t-" + str(id(self) % 1000)}, name="login")
        self.token = r.json()["token"]
        self.client.headers.update({"Authorization": "Bearer " + self.token})

    @task(2)
    def me(self):
        with self.client.post("/echo", json={"who": self.token}, catch_response=True, name="me") as r:
            if r.json().get("who") != self.token:
                r.failure("token lost")

    @task
    def page(self):
        self.client.get("/json", name="page")

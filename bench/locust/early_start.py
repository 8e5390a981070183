# args: -u 40 -r 40 -t 15s
# on_start that returns early for some users (no login), tasks that check what it set.
from locust import HttpUser, constant_pacing, task


class Member(HttpUser):
    wait_time = constant_pacing(0.25)
    token = None
    started = 0

    def on_start(self):
        Member.started += 1
        odd = Member.started % 2 == 1
        self.guest = self.client.get("/json", name="probe").status_code == 200 and odd
        if self.guest:
            return
        r = self.client.post("/login", json={"user": "m", "password": "secret"}, name="login")
        self.token = r.json()["token"]

    @task
    def me(self):
        if self.token is None:
            self.client.get("/", name="guest home")
            return
        self.client.get("/me", headers={"Authorization": "Bearer " + self.token}, name="me")

# Accounts handed out once each from a queue filled in test_start, as teams share test data between users.
import queue

from locust import HttpUser, constant, events, task

ACCOUNTS = queue.Queue()


@events.test_start.add_listener
def load_accounts(environment, **kwargs):
    for i in range(100):
        ACCOUNTS.put_nowait({"user": f"user{i}", "password": "secret"})


class Member(HttpUser):
    wait_time = constant(0.2)

    def on_start(self):
        try:
            self.account = ACCOUNTS.get_nowait()
        except queue.Empty:
            self.account = None
        if self.account is not None:
            self.client.post("/login", json=self.account, name="login")

    @task
    def me(self):
        if self.account is None:
            self.client.get("/nonexistent", name="no account")
        else:
            self.client.get("/json", name="member page")

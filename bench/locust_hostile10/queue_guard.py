# Accounts handed out once: the first user to start makes the queue, behind an `is None` check.
import queue

from locust import HttpUser, constant, task


class Account(HttpUser):
    wait_time = constant(0.3)
    accounts = None

    def on_start(self):
        if Account.accounts is None:
            Account.accounts = queue.Queue()
            for i in range(3):
                Account.accounts.put(f"user{i}")
        try:
            self.name = Account.accounts.get_nowait()
        except queue.Empty:
            self.name = "none left"
        self.client.get("/", name=f"login {self.name}")

    @task
    def work(self):
        self.client.get("/json", name="work")

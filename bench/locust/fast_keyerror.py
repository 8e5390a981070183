# args: -u 40 -r 40 -t 15s
# A FastHttpUser reading keys from JSON bodies, one missing: an exception per task, counted by Locust.
from locust import FastHttpUser, constant_pacing, task


class Reader(FastHttpUser):
    wait_time = constant_pacing(0.25)

    @task(3)
    def good(self):
        user = self.client.get("/user", name="user").json()
        self.client.get(f"/fib/{len(user) % 10}", name="by user")

    @task(1)
    def bad(self):
        self.client.get("/json", name="json").json()["does_not_exist"]

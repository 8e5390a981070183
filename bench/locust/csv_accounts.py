# args: -u 40 -r 40 -t 15s
# A QA team's accounts from a CSV beside the file: each user logs in with the next row; one row's password
# is wrong, so that user's /me fails and it stops (StopUser), as the team wants a bad account to.
import csv
import itertools
import os

from locust import HttpUser, between, task
from locust.exception import StopUser

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "accounts.csv"), newline="") as f:
    ACCOUNTS = list(csv.DictReader(f))
ROWS = itertools.cycle(ACCOUNTS)


class Customer(HttpUser):
    wait_time = between(0.4, 0.6)

    def on_start(self):
        self.account = next(ROWS)
        r = self.client.post(
            "/login",
            json={"user": self.account["username"], "password": self.account["password"]},
            name="/login",
            catch_response=True,
        )
        with r:
            if r.status_code == 401:
                r.success()
                raise StopUser()
            self.token = r.json()["token"]

    @task(3)
    def me(self):
        self.client.get("/me", headers={"Authorization": "Bearer " + self.token}, name="/me")

    @task(1)
    def regional_home(self):
        self.client.get("/home", params={"region": self.account["region"]}, name="/home?region")

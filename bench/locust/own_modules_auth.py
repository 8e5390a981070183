# args: -u 30 -r 30 -t 12s
# A locustfile split as teams split them: the login of common/auth.py, the helpers of a package beside it.
from locust import HttpUser, task, between
from common.auth import login
import shop_helpers


class Member(HttpUser):
    wait_time = between(0.2, 0.4)

    def on_start(self):
        self.auth = login(self)

    @task(3)
    def profile(self):
        self.client.get("/me", headers=self.auth, name="/me")

    @task(2)
    def fib(self):
        path, name = shop_helpers.fib_path(12)
        self.client.get(path, name=name)

    @task
    def user(self):
        shop_helpers.check_user(self.client.get("/user", catch_response=True))

# args: -u 40 -r 40 -t 15s
# A mixin of helpers (its @task, which Locust does not collect) and an abstract base shared by two users.
from locust import HttpUser, constant_pacing, task


class BrowseMixin:
    @task(3)
    def browse(self):
        self.client.get("/json", name="browse")

    def fetch_user(self):
        return self.client.get("/user", name="user").json()


class ApiBase(HttpUser):
    abstract = True
    wait_time = constant_pacing(0.25)

    def get_fib(self, n):
        return self.client.get(f"/fib/{n}", name="/fib/[n]")


class Shopper(BrowseMixin, ApiBase):
    weight = 2

    @task
    def profile(self):
        self.fetch_user()


class Analyst(ApiBase):
    @task
    def compute(self):
        self.get_fib(15)

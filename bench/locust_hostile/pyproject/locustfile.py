# Settings kept in pyproject.toml's [tool.locust], as Python teams keep their tools' settings.
from locust import HttpUser, constant, tag, task


class Shopper(HttpUser):
    wait_time = constant(0.5)

    @task(2)
    def home(self):
        self.client.get("/", name="home")

    @task
    def user(self):
        self.client.get("/user", name="user")

    @tag("admin")
    @task
    def admin(self):
        self.client.get("/fib/500", name="admin")

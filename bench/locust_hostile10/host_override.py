# A class host the team's CI overrides with --host; a TaskSet reads it through its user.
from locust import HttpUser, TaskSet, constant, task


class Pages(TaskSet):
    @task
    def home(self):
        assert not self.user.host.startswith("https://staging"), self.user.host
        self.client.get("/", name="home")

    @task
    def absolute(self):
        self.client.get(f"{self.user.host}/json", name="absolute")


class Site(HttpUser):
    host = "https://staging.example.com"
    wait_time = constant(0.3)
    tasks = [Pages]

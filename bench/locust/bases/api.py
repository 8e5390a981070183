# A base user class of the team's: its wait, its login and a request helper; abstract, as a base is.
from locust import FastHttpUser, constant_pacing, task
from common import auth


class ApiUser(FastHttpUser):
    abstract = True
    wait_time = constant_pacing(0.3)

    def on_start(self):
        self.headers = auth.login(self)

    def fetch(self, path, name):
        return self.client.get(path, name=name, headers=self.headers)


class Reporter(ApiUser):
    fixed_count = 2

    @task
    def report(self):
        self.fetch("/json", "report")

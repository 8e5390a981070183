# Three user classes; the command line runs two of them by name.
from locust import HttpUser, constant, task


class Browser(HttpUser):
    wait_time = constant(0.4)

    @task
    def home(self):
        self.client.get("/", name="home")


class Searcher(HttpUser):
    wait_time = constant(0.4)
    weight = 2

    @task
    def search(self):
        self.client.get("/validate?id=3&name=shoe", name="search")


class Admin(HttpUser):
    wait_time = constant(0.4)

    @task
    def report(self):
        self.client.get("/cpu?ms=5", name="admin report")

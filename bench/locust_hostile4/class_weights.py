# Three user classes picked by weight (1:2:5) at -u 8, no class named on the command line.
from locust import HttpUser, constant, task


class Rare(HttpUser):
    weight = 1
    wait_time = constant(0.25)

    @task
    def rare(self):
        self.client.get("/fib/8", name="rare")


class Middle(HttpUser):
    weight = 2
    wait_time = constant(0.25)

    @task
    def middle(self):
        self.client.get("/json", name="middle")


class Common(HttpUser):
    weight = 5
    wait_time = constant(0.25)

    @task
    def common(self):
        self.client.get("/", name="common")

# --exclude-tags slow: a tagged task inside a set is left out, the set's others run; untagged ones run.
from locust import HttpUser, TaskSet, constant, tag, task


class Shop(TaskSet):
    @tag("slow")
    @task(3)
    def report(self):
        self.client.get("/sleep?ms=50", name="shop report")

    @task
    def view(self):
        self.client.get("/json", name="shop view")
        self.interrupt()


class Shopper(HttpUser):
    wait_time = constant(0.1)
    tasks = [Shop]

    @tag("slow")
    @task
    def export(self):
        self.client.get("/sleep?ms=50", name="export")

    @task
    def home(self):
        self.client.get("/", name="home")

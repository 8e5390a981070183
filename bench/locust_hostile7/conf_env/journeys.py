# A journey file named by locust.conf; the run's users and time come from LOCUST_USERS and the conf.
from locust import HttpUser, constant, tag, task


class Journey(HttpUser):
    wait_time = constant(0.1)

    @task
    def home(self):
        self.client.get("/", name="home")

    @tag("slow")
    @task
    def slow(self):
        self.client.get("/sleep?ms=300", name="slow")

    @tag("api")
    @task
    def api(self):
        self.client.get("/json", name="api")

# Users and run time from locust.conf, LOCUST_* variables and the command line, in Locust's precedence.
from locust import HttpUser, constant, task


class Journey(HttpUser):
    wait_time = constant(0.5)

    def on_start(self):
        self.client.get("/", name=f"users {self.environment.parsed_options.num_users}")

    @task
    def step(self):
        self.client.get("/json", name="step")

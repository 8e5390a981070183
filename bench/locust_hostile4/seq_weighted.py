# A SequentialTaskSet whose tasks carry weights: Locust runs each as often as its weight, in order.
from locust import HttpUser, SequentialTaskSet, constant, task


class Wizard(SequentialTaskSet):
    @task(2)
    def step_one(self):
        self.client.get("/json", name="wizard 1")

    @task
    def step_two(self):
        self.client.post("/echo", json={"step": 2}, name="wizard 2")

    @task(3)
    def step_three(self):
        self.client.get("/", name="wizard 3")


class Applicant(HttpUser):
    wait_time = constant(0.1)
    tasks = [Wizard]

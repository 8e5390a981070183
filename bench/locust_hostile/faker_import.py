# args: -u 2 -r 2 -t 5s
# A package the team pip-installed beside Locust for fake data.
from faker import Faker
from locust import HttpUser, constant, task

fake = Faker()


class Signup(HttpUser):
    wait_time = constant(1)

    @task
    def signup(self):
        self.client.post("/echo", json={"name": fake.name(), "email": fake.email()}, name="signup")

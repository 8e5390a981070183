# Users in one file, a shape in another: locust -f users.py,shape.py (each file's classes are the run's).
from locust import HttpUser, constant, events, task


@events.test_start.add_listener
def hello(environment, **kwargs):
    print("users.py: test_start")


class Reader(HttpUser):
    wait_time = constant(0.4)

    @task
    def read(self):
        self.client.get("/json", name="reader")

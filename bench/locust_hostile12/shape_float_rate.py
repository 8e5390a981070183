# A shape ramping with a float spawn rate and a float user count Locust truncates; stops at 4 s.
from locust import HttpUser, LoadTestShape, constant, task


class Visitor(HttpUser):
    wait_time = constant(0.25)

    @task
    def visit(self):
        self.client.get("/", name="visit")


class Ramp(LoadTestShape):
    def tick(self):
        run_time = self.get_run_time()
        if run_time > 4:
            return None
        return (3, 1.5)

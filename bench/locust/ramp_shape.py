# args: -t 30s
# A team's ramp: 4 users for 3 s, then 8, then stop at 8 s (a LoadTestShape decides, not -u or -t).
from locust import HttpUser, LoadTestShape, constant, task


class Api(HttpUser):
    wait_time = constant(0.25)

    @task
    def read(self):
        self.client.get("/json", name="shaped read")


class Ramp(LoadTestShape):
    def tick(self):
        run_time = self.get_run_time()
        if run_time < 3:
            return (4, 4)
        if run_time < 8:
            return (8, 8)
        return None

# A run that ends itself: once the users have sent 40 requests, runner.quit(); --stop-timeout lets tasks end.
from locust import HttpUser, constant, task

sent = 0


class Counted(HttpUser):
    wait_time = constant(0.1)

    @task
    def step(self):
        global sent
        self.client.get("/json", name="step")
        sent += 1
        if sent == 40:
            self.environment.runner.quit()

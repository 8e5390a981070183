# A budget kept on the class: the user that spends its last unit quits the whole run.
from locust import HttpUser, constant, task


class Buyer(HttpUser):
    wait_time = constant(0.05)
    budget = 40

    @task
    def buy(self):
        self.client.post("/echo", json={"item": 1}, name="buy")
        Buyer.budget -= 1
        if Buyer.budget <= 0:
            self.environment.runner.quit()

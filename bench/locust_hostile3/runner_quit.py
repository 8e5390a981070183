# A user quits the whole run from a task after enough requests, through its environment's runner.
from locust import HttpUser, constant, task

done = {"n": 0}


class Worker(HttpUser):
    wait_time = constant(0.1)

    @task
    def work(self):
        self.client.get("/json", name="work")
        done["n"] += 1
        if done["n"] >= 40:
            self.environment.runner.quit()

# Tasks read the runner's user_count; the first user to see enough sent quits the whole run.
from locust import HttpUser, constant, task

sent = {"n": 0}


class Counter(HttpUser):
    wait_time = constant(0.1)

    @task
    def work(self):
        users = self.environment.runner.user_count
        self.client.get("/json", name=f"work at {users} users" if users >= 3 else "work ramping")
        sent["n"] += 1
        if sent["n"] >= 60:
            self.environment.runner.quit()

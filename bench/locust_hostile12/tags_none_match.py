# --tags nothing: no task of the class matches, so its users have no tasks (Locust's error for each user).
from locust import HttpUser, constant, tag, task


class Nothing(HttpUser):
    wait_time = constant(0.1)

    @tag("api")
    @task
    def api(self):
        self.client.get("/", name="api")

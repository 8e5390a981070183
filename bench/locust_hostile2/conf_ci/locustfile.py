# Settings from --config: tags, exit code on error, the load.
from locust import HttpUser, constant, tag, task


class Api(HttpUser):
    wait_time = constant(0.3)

    @tag("read")
    @task(3)
    def list(self):
        self.client.get("/json", name="list")

    @tag("read")
    @task
    def missing(self):
        self.client.get("/static/gone.txt", name="missing")

    @tag("write")
    @task
    def write(self):
        self.client.post("/echo", json={}, name="write")

# args: -u 6 -r 6 -t 8s
# The class names a host no one serves; -H on the command line wins, as Locust's.
from locust import HttpUser, constant, task


class Staging(HttpUser):
    host = "http://127.0.0.1:9"
    wait_time = constant(0.3)

    @task
    def home(self):
        self.client.get("/", name="staging home")
        self.client.get(f"{self.host}/json", name="absolute json")

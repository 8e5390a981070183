# args: --config conf_file.conf
# Options from a conf file the team keeps next to the file.
from locust import HttpUser, constant_pacing, task


class Conf(HttpUser):
    wait_time = constant_pacing(0.25)

    @task(2)
    def a(self):
        self.client.get("/json", name="conf a")

    @task(1)
    def b(self):
        self.client.get("/user", name="conf b")

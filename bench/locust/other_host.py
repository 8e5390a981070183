# args: -u 40 -r 40 -t 15s
# Absolute URLs: the same app by another name, besides the host's relative paths.
from locust import FastHttpUser, constant_pacing, task


class TwoHosts(FastHttpUser):
    wait_time = constant_pacing(0.25)

    def on_start(self):
        self.other = self.host.replace("127.0.0.1", "localhost")

    @task(2)
    def local(self):
        self.client.get("/json", name="here")

    @task(1)
    def remote(self):
        self.client.get(self.other + "/user", name="there")

    @task(1)
    def unnamed_absolute(self):
        self.client.get(self.other + "/")

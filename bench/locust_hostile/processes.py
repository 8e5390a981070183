# args: -u 6 -r 6 -t 8s --processes 2
# One machine, several Locust processes (--processes): the same users split across them.
from locust import FastHttpUser, constant, task


class Many(FastHttpUser):
    wait_time = constant(0.5)

    @task
    def one(self):
        self.client.get("/json", name="one")

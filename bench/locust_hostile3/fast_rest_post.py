# FastHttpUser's rest() posting JSON and checking resp.js; a KeyError inside is its failure.
from locust import FastHttpUser, constant, task


class Api(FastHttpUser):
    wait_time = constant(0.2)

    @task(2)
    def echo(self):
        with self.rest("POST", "/echo", json={"n": 3}, name="echo") as resp:
            if resp.js["n"] != 3:
                resp.failure("n lost")

    @task
    def missing_key(self):
        with self.rest("GET", "/json", name="missing key") as resp:
            resp.js["absent"]

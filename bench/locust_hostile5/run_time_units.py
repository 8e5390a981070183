# -t with its units mixed (0m6s), and the summary only.
from locust import FastHttpUser, constant, task


class Quick(FastHttpUser):
    wait_time = constant(0.2)

    @task
    def hello(self):
        self.client.get("/", name="hello")

    @task
    def json_body(self):
        with self.client.get("/json", name="json", catch_response=True) as r:
            if r.json().get("message") != "Hello, World!":
                r.failure("wrong message")

# response.json() of a non-JSON body: outside catch_response the task raises (an error, not a failure);
# inside it, caught and judged by the file.
from json import JSONDecodeError

from locust import HttpUser, constant, task


class Parser(HttpUser):
    wait_time = constant(0.2)

    @task(2)
    def raw(self):
        self.client.get("/", name="raw")
        self.client.get("/", name="raw again").json()
        self.client.get("/json", name="never reached")

    @task
    def caught(self):
        with self.client.get("/", name="caught", catch_response=True) as r:
            try:
                r.json()
            except JSONDecodeError:
                r.failure("not JSON")
        with self.client.get("/json", name="parsed", catch_response=True) as r:
            if r.json().get("message") != "Hello, World!":
                r.failure("wrong")

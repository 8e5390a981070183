# FastHttpUser's client: request(), headers=, params=, json=, data=, allow_redirects, stream, auth.
from locust import FastHttpUser, constant, task


class Fast(FastHttpUser):
    wait_time = constant(0.25)
    connection_timeout = 5.0
    network_timeout = 5.0
    max_redirects = 2

    @task
    def generic(self):
        self.client.request("GET", "/json", headers={"X-Trace": "1"}, name="request GET")

    @task
    def posted(self):
        r = self.client.post("/echo", json={"a": [1, 2]}, name="post json")
        assert r.json()["a"] == [1, 2]

    @task
    def form(self):
        self.client.post("/echo", data={"k": "v"}, name="post form")

    @task
    def query(self):
        self.client.get("/validate", params={"id": 3, "name": "carol"}, name="query")

    @task
    def authed(self):
        self.client.get("/me", auth=("u", "p"), name="me basic")

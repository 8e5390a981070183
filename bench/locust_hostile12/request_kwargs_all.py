# client.request() with every kwarg: params, json, data, headers, cookies, allow_redirects, timeout, name.
from locust import HttpUser, constant, task


class Kwargs(HttpUser):
    wait_time = constant(0.2)

    def on_start(self):
        r = self.client.request("POST", "/login", json={"user": "ann", "password": "secret"}, name="login")
        self.token = r.json()["token"]
        self.session = r.cookies.get("session")

    @task
    def every(self):
        self.client.request("GET", "/json", params={"a": 1, "b": ["x", "y"]}, name="params")
        with self.client.request("POST", "/echo", json={"k": [1, 2]}, catch_response=True, name="json") as r:
            if r.json() != {"k": [1, 2]}:
                r.failure(r.text)
        with self.client.request("POST", "/echo", data={"f": "v w"}, catch_response=True, name="form") as r:
            if r.text != "f=v+w":
                r.failure(r.text)
        self.client.request(
            "GET",
            "/me",
            headers={"Authorization": f"Bearer {self.token}"},
            cookies={"session": self.session},
            allow_redirects=False,
            timeout=5,
            name="me all",
        )
        self.client.request("get", "/me", headers={"Authorization": "Bearer nope"}, name="me lower method")

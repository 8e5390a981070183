# An API team's generic request helper: self.client.request(method, url, ...), params=, data= as a dict and as
# a string, files=, verify=False, timeout= as a tuple, and **kwargs passed through.
from locust import FastHttpUser, HttpUser, constant, task


def send(client, method, url, *, expect=200, **kwargs):
    with client.request(method, url, catch_response=True, **kwargs) as r:
        if r.status_code != expect:
            r.failure(f"{method} {url}: {r.status_code}")
        return r


class Api(HttpUser):
    wait_time = constant(0.1)

    @task
    def query(self):
        send(self.client, "GET", "/validate", params={"id": 3, "name": "query"}, name="params")
        send(self.client, "GET", "/validate", params=[("id", "x"), ("name", "short")], expect=400, name="params list")

    @task
    def forms(self):
        send(self.client, "POST", "/echo", data={"a": "1", "b": "two"}, name="form dict")
        send(self.client, "POST", "/echo", data="raw=1", name="form str", timeout=(3.05, 10), verify=False)

    @task
    def upload(self):
        send(self.client, "POST", "/echo", files={"report": ("r.csv", "a,b\n1,2\n", "text/csv")}, name="upload")


class Fast(FastHttpUser):
    wait_time = constant(0.2)

    @task
    def fast(self):
        r = self.client.request("GET", "/json", name="fast request")
        r.raise_for_status()

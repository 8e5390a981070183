# args: -u 4 -r 4 -t 8s
# Every method, as keywords too: request(method=, url=), head, options, PATCH with data=dict vs json=dict.
from locust import HttpUser, constant, task


class Methods(HttpUser):
    wait_time = constant(0.5)

    @task
    def all_methods(self):
        self.client.head("/json", name="head")
        self.client.options("/json", name="options")
        self.client.request(method="PATCH", url="/echo", data={"a": "1", "b": "x y"}, name="patch form")
        self.client.request("PATCH", "/echo", json={"a": 1}, name="patch json")
        r = self.client.request("POST", "/echo", data={"k": ["1", "2"]}, name="form list")
        assert r.text == "k=1&k=2", r.text
        self.client.delete("/echo", json={"id": 1}, name="delete")
        self.client.put("/echo", data=b"raw", headers={"Content-Type": "application/octet-stream"}, name="put")

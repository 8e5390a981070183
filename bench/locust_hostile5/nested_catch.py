# catch_response blocks nested in loops, with params=, headers=, cookies=, files= and data=.
from locust import HttpUser, constant, task


class Batch(HttpUser):
    wait_time = constant(0.3)

    @task
    def pages(self):
        for n in range(3):
            for kind in ["a", "b"]:
                with self.client.get("/validate", params={"id": n, "name": f"{kind}xxxxx"},
                                     name=f"page {kind}", catch_response=True) as r:
                    if n == 2 and kind == "b":
                        r.failure("last page of b")
                    elif r.status_code == 200:
                        r.success()

    @task
    def upload(self):
        files = {"file": ("report.csv", b"a,b\n1,2\n", "text/csv")}
        with self.client.post("/echo", files=files, data={"kind": "csv"}, headers={"x-team": "qa"},
                              cookies={"session": "abc"}, name="upload", catch_response=True) as r:
            if b"report.csv" not in r.content:
                r.failure("file not echoed")

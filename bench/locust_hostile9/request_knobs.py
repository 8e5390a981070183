# requests' knobs as a team sets them: request(method, url), verify, redirects, timeout, cookies, auth, files.
import io

from locust import HttpUser, constant, task


class Knobs(HttpUser):
    wait_time = constant(0.25)

    @task
    def knobs(self):
        for method in ("GET", "POST"):
            path = "/" if method == "GET" else "/echo"
            self.client.request(method, path, name=f"request {method.lower()}", verify=False, timeout=5)
        self.client.get("/json", allow_redirects=False, cookies={"session": "abc"}, name="cookies")
        self.client.get("/", auth=("user", "pass"), name="auth")
        self.client.post("/echo", files={"file": ("a.txt", io.BytesIO(b"hello"), "text/plain")}, name="upload")
        r = self.client.get("/sleep?ms=300", timeout=0.05, name="timeout")

# args: -u 40 -r 40 -t 15s
# The client as a requests.Session: default headers, auth, verify, stream, file uploads.
from locust import HttpUser, constant_pacing, task


class Uploader(HttpUser):
    wait_time = constant_pacing(0.25)

    def on_start(self):
        self.client.headers.update({"X-Team": "qa", "Accept": "application/json"})
        self.client.auth = ("qa", "pw")
        self.client.verify = False

    @task(3)
    def read(self):
        self.client.get("/json", name="read", verify=False)

    @task(2)
    def stream(self):
        r = self.client.get("/user", name="stream", stream=True)
        r.content

    @task(1)
    def upload(self):
        self.client.post("/echo", files={"file": ("a.txt", b"hello", "text/plain")}, name="upload")

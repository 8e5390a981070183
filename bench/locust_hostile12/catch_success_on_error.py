# catch_response turning a 404 into a success and a 200 into a failure by its body; failure with an exception.
from locust import HttpUser, constant, task


class Judge(HttpUser):
    wait_time = constant(0.2)

    @task
    def judge(self):
        with self.client.get("/missing", name="404 accepted", catch_response=True) as r:
            if r.status_code == 404:
                r.success()
        with self.client.get("/json", name="body judged", catch_response=True) as r:
            if "Goodbye" not in r.text:
                r.failure(f"unexpected body of {len(r.text)} bytes")
        with self.client.get("/", name="exception object", catch_response=True) as r:
            r.failure(RuntimeError("bad"))

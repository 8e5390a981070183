# A task fires events.request itself (a custom client's habit); the listener and the stats both see it.
import time

from locust import HttpUser, constant, events, task


class Custom(HttpUser):
    wait_time = constant(0.2)

    @task
    def custom(self):
        start = time.perf_counter()
        self.client.get("/json", name="real")
        events.request.fire(
            request_type="CUSTOM",
            name="fired ok",
            response_time=(time.perf_counter() - start) * 1000,
            response_length=0,
            exception=None,
            context={},
        )
        self.environment.events.request.fire(
            request_type="CUSTOM",
            name="fired fail",
            response_time=1.5,
            response_length=0,
            exception=ValueError("custom failure"),
            context={},
        )

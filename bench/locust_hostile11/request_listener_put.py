# A request listener puts each failed name into a module queue; a task drains it and retries.
import queue

from locust import HttpUser, constant, events, task

retry = queue.Queue()


@events.request.add_listener
def on_request(name, exception, **kwargs):
    if exception is not None and name == "flaky":
        retry.put(name)


class Retrier(HttpUser):
    wait_time = constant(0.25)

    @task
    def flaky(self):
        self.client.get("/nonexistent", name="flaky")

    @task
    def drain(self):
        try:
            retry.get_nowait()
            self.client.get("/json", name="retried")
        except queue.Empty:
            self.client.get("/", name="nothing to retry")

# A non-HTTP client timed by hand and reported with events.request.fire, as teams wrap other protocols.
import time

from locust import User, between, events, task


class FakeQueue:
    def __init__(self, environment):
        self.environment = environment

    def send(self, topic, ok=True):
        start = time.perf_counter()
        time.sleep(0.01)
        elapsed_ms = (time.perf_counter() - start) * 1000
        self.environment.events.request.fire(
            request_type="QUEUE",
            name=topic,
            response_time=elapsed_ms,
            response_length=len(topic),
            exception=None if ok else RuntimeError("broker refused"),
            context={},
        )


class Producer(User):
    wait_time = between(0.1, 0.2)

    def on_start(self):
        self.queue = FakeQueue(self.environment)

    @task(3)
    def publish(self):
        self.queue.send("orders")

    @task
    def refused(self):
        self.queue.send("dead letters", ok=False)

# A module queue that a spawning_complete listener fills after test_start: users wait for its items.
import queue

from locust import HttpUser, constant, events, task

work = queue.Queue()


@events.spawning_complete.add_listener
def fill(user_count, **kwargs):
    for i in range(6):
        work.put(f"job{i}")


class Worker(HttpUser):
    wait_time = constant(0.2)

    @task
    def take(self):
        try:
            job = work.get(timeout=3)
        except queue.Empty:
            self.client.get("/", name="no job")
            return
        self.client.get("/json", name=f"job")

# --csv with --csv-full-history: a failing name, an exception in a task, names with commas and quotes.
from locust import HttpUser, constant, task


class Columns(HttpUser):
    wait_time = constant(0.3)

    @task(3)
    def fine(self):
        self.client.get("/json", name="list, all")

    @task
    def missing(self):
        self.client.get("/nonexistent", name='say "missing"')

    @task
    def raises(self):
        self.client.get("/", name="before raise")
        raise ValueError("broken, on purpose")

# --json prints the final stats alone on stdout; the file's own print goes to stderr on Locust.
from locust import HttpUser, constant, events, task


@events.test_stop.add_listener
def done(environment, **kwargs):
    print("test stopped")


class Printer(HttpUser):
    wait_time = constant(0.25)

    @task
    def one(self):
        self.client.get("/json")
        print("sent one")

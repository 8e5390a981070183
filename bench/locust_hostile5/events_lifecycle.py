# init and quitting listeners; the class's host is replaced by -H.
from locust import HttpUser, constant, events, task

counts = {"init": 0}


@events.init.add_listener
def on_init(environment, **kwargs):
    counts["init"] += 1
    print(f"init ran {counts['init']} time(s)")


@events.quitting.add_listener
def on_quitting(environment, **kwargs):
    total = environment.stats.total
    if total.num_failures > 0:
        environment.process_exit_code = 3
    print(f"quitting: {total.num_requests} requests")


class Site(HttpUser):
    host = "http://127.0.0.1:9"
    wait_time = constant(0.2)

    @task(3)
    def index(self):
        self.client.get("/", name="index")

    @task
    def broken(self):
        self.client.get("/gone", name="broken")

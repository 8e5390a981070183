# A quitting listener sets process_exit_code from the failure ratio and the average; -t ends it.
from locust import HttpUser, constant, events, task


@events.quitting.add_listener
def _(environment, **kw):
    stats = environment.stats.total
    if stats.fail_ratio > 0.5:
        environment.process_exit_code = 1
    elif stats.avg_response_time > 2000:
        environment.process_exit_code = 2
    else:
        environment.process_exit_code = 0


class Mostly(HttpUser):
    wait_time = constant(0.2)

    @task(3)
    def ok(self):
        self.client.get("/")

    @task
    def broken(self):
        self.client.get("/missing")

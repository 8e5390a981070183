# Request listener tallies by name; test_start resets, test_stop prints and sets the exit code from them.
from locust import HttpUser, constant, events, task

tally = {}


@events.test_start.add_listener
def on_test_start(environment, **kwargs):
    tally.clear()


@events.request.add_listener
def on_request(request_type, name, response_time, response_length, exception, **kwargs):
    key = f"{request_type} {name}"
    ok, failed = tally.get(key, (0, 0))
    tally[key] = (ok + (exception is None), failed + (exception is not None))


@events.test_stop.add_listener
def on_test_stop(environment, **kwargs):
    failed = sum(f for _, f in tally.values())
    print(f"tally: {len(tally)} names, {failed} failed")
    environment.process_exit_code = 3 if failed else 0


class Client(HttpUser):
    wait_time = constant(0.1)

    @task(5)
    def fine(self):
        self.client.get("/json", name="fine")

    @task
    def broken(self):
        self.client.get("/error/1", name="broken")

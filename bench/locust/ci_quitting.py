# args: -u 30 -r 30 -t 12s
# A CI gate as Locust's docs write one: the run passes unless more than 20% of requests fail or the 95th
# percentile passes 800 ms, whatever the failures below that; slow requests counted by a listener.
import logging

from locust import HttpUser, between, events, task

SLOW_MS = 100
slow_requests = 0


@events.request.add_listener
def count_slow(request_type, name, response_time, exception, **kwargs):
    global slow_requests
    if response_time > SLOW_MS:
        slow_requests += 1


@events.test_stopping.add_listener
def on_test_stopping(environment, **kwargs):
    logging.info("stopping after %d requests", environment.stats.total.num_requests)


@events.quitting.add_listener
def gate(environment, **kwargs):
    total = environment.stats.total
    logging.info("slow requests (this process): %d", slow_requests)
    if total.fail_ratio > 0.2:
        logging.error("Test failed due to failure ratio > 20%")
        environment.process_exit_code = 1
    elif total.get_response_time_percentile(0.95) > 800:
        logging.error("Test failed due to 95th percentile response time > 800 ms")
        environment.process_exit_code = 1
    else:
        environment.process_exit_code = 0


class Shopper(HttpUser):
    wait_time = between(0.3, 0.5)

    @task(10)
    def browse(self):
        self.client.get("/json", name="browse")

    @task(1)
    def broken(self):
        self.client.get("/no-such-page", name="broken")

# test_start fills shared data, test_stop reads the totals, quitting fails the run on a failure ratio.
import logging

from locust import HttpUser, between, events, task

ids = []


@events.test_start.add_listener
def fill(environment, **kwargs):
    ids.extend(range(1, 6))
    logging.info("loaded %d ids", len(ids))


@events.test_stop.add_listener
def summary(environment, **kwargs):
    total = environment.stats.total
    logging.info("sent %d, failed %d", total.num_requests, total.num_failures)


@events.quitting.add_listener
def gate(environment, **kwargs):
    if environment.stats.total.fail_ratio > 0.2:
        logging.error("too many failures")
        environment.process_exit_code = 2
    elif environment.stats.total.avg_response_time > 5000:
        environment.process_exit_code = 3
    else:
        environment.process_exit_code = 0


class Reader(HttpUser):
    wait_time = between(0.1, 0.2)

    @task(3)
    def item(self):
        self.client.get(f"/fib/{ids[len(ids) - 1]}", name="item")

    @task
    def broken(self):
        self.client.get("/missing", name="broken")

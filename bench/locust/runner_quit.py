# args: -u 10 -r 10 -t 30s
# A smoke test that ends itself: after 6 s of run the first user to notice quits the whole run.
import time
import logging

from locust import HttpUser, constant, events, task

STARTED = time.time()


@events.test_start.add_listener
def started(environment, **kwargs):
    logging.info("smoke test against %s", environment.host)


class Smoke(HttpUser):
    wait_time = constant(0.5)

    @task
    def ping(self):
        self.client.get("/", name="ping")
        if time.time() - STARTED > 6:
            logging.info("enough: %d users", self.environment.runner.user_count)
            self.environment.runner.quit()

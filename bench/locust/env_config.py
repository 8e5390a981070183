# args: -u 12 -r 12 -t 8s
# Everything from the environment, as a pipeline sets it: weights, waits and paths, with defaults.
import os

from locust import HttpUser, between, task

MIN_WAIT = float(os.getenv("MIN_WAIT", "0.1"))
MAX_WAIT = float(os.getenv("MAX_WAIT", "0.3"))
READ_WEIGHT = int(os.environ.get("READ_WEIGHT", "3"))
PATHS = os.getenv("READ_PATHS", "/,/json,/user").split(",")
DEBUG = os.environ.get("LOCUST_DEBUG", "").lower() in ("1", "true", "yes")


class Reader(HttpUser):
    weight = READ_WEIGHT
    wait_time = between(MIN_WAIT, MAX_WAIT)

    @task
    def read(self):
        for path in PATHS:
            r = self.client.get(path)
            if DEBUG:
                print(path, r.status_code)


class Writer(HttpUser):
    weight = 1
    wait_time = between(MIN_WAIT, MAX_WAIT)

    @task
    def write(self):
        self.client.post("/echo", json={"env": os.getenv("ENVIRONMENT", "staging")}, name="write")

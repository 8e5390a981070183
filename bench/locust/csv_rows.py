# args: -u 40 -r 40 -t 15s
# Users and paths from a CSV file read with csv.reader at import, a host from the environment.
import csv
import os
import random

from locust import HttpUser, constant_pacing, task

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "paths.csv"), newline="") as f:
    rows = list(csv.reader(f))
HEADER, PATHS = rows[0], rows[1:]


class CsvUser(HttpUser):
    host = os.environ.get("HOST", "http://127.0.0.1:9")
    wait_time = constant_pacing(0.25)

    @task
    def visit(self):
        name, path = random.choice(PATHS)
        self.client.get(path, name=name)

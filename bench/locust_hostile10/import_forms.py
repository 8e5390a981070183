# The import forms teams mix: dotted imports of Locust's and Python's modules, with and without `as`.
import locust.exception
import locust.stats
import os.path
import urllib.parse
import urllib.parse as up
import requests.exceptions

from locust import HttpUser, constant, task

locust.stats.CSV_STATS_INTERVAL_SEC = 2
locust.stats.CSV_STATS_FLUSH_INTERVAL_SEC = 10


class Imports(HttpUser):
    wait_time = constant(0.25)

    def on_start(self):
        self.count = 0

    @task
    def forms(self):
        self.count += 1
        query = urllib.parse.urlencode({"id": self.count % 2, "name": up.quote("a b")})
        self.client.get(f"/validate?{query}", name=f"validate {os.path.basename('/x/y.json')}")
        try:
            self.client.get("/nonexistent", name="raises").raise_for_status()
        except requests.exceptions.HTTPError:
            if self.count % 4 == 0:
                raise locust.exception.RescheduleTask()
        self.client.get("/json", name="after")

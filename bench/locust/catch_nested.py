# args: -u 20 -r 20 -t 12s
# Defensive checks: catch_response blocks inside try/except, a latency budget read from elapsed, a body
# parsed in the block whose exception is caught around it (Locust then reports no request for it).
import json
import logging

from locust import HttpUser, constant, task


class Careful(HttpUser):
    wait_time = constant(0.4)

    @task(3)
    def budget(self):
        try:
            with self.client.get("/sleep", params={"ms": 20}, name="budget", catch_response=True) as r:
                if r.elapsed.total_seconds() > 2.0:
                    r.failure(f"slow: {r.elapsed.total_seconds():.3f}s")
                elif r.json()["sleptMs"] != 20:
                    r.failure("wrong sleep")
        except Exception as e:
            logging.exception("budget check crashed: %s", e)

    @task(2)
    def parse(self):
        try:
            with self.client.get("/", name="parse", catch_response=True) as r:
                data = json.loads(r.text)
                r.success()
        except json.JSONDecodeError:
            pass

    @task(2)
    def missing_key(self):
        try:
            with self.client.get("/json", name="missing key", catch_response=True) as r:
                value = r.json()["no-such-key"]
                r.success()
        except KeyError:
            logging.info("no key")

    @task
    def status(self):
        with self.client.get("/error/0", name="status", catch_response=True) as r:
            try:
                r.raise_for_status()
            except Exception as e:
                r.failure(str(e)[:40])

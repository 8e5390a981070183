# Run with -L WARNING, --html, --json and --exit-code-on-error: a logger at three levels and one failing name.
import logging

from locust import HttpUser, constant, task

log = logging.getLogger("team")


class Reporter(HttpUser):
    wait_time = constant(0.2)

    @task(3)
    def ok(self):
        r = self.client.get("/json", name="ok")
        log.debug("debug %s", r.status_code)
        log.info("info %s", r.status_code)

    @task
    def bad(self):
        r = self.client.get("/validate?n=-1", name="bad")
        log.warning("bad answered %d", r.status_code)

# args: -u 40 -r 40 -t 15s
# An SRE team's hooks: options logged at init, every failed request logged once per name by a request
# listener, a request's context tagging its tenant, the user count read back from the parsed options.
import logging

from locust import HttpUser, constant_pacing, events, task

seen_failures = set()


@events.init.add_listener
def on_init(environment, **kwargs):
    logging.warning("init: host %s", environment.host)


@events.request.add_listener
def on_request(request_type, name, response_time, response_length, exception, context, **kwargs):
    if exception and name not in seen_failures:
        seen_failures.add(name)
        logging.warning("first failure of %s %s (tenant %s): %s", request_type, name, context.get("tenant"), exception)


class Tenant(HttpUser):
    wait_time = constant_pacing(0.5)

    def on_start(self):
        self.tenant = "t%d" % (self.environment.parsed_options.num_users % 3)

    @task(5)
    def dashboard(self):
        self.client.request("GET", "/json", name="dashboard", context={"tenant": self.tenant})

    @task(2)
    def report(self):
        self.client.request("GET", "/fib/20", name="report", context={"tenant": self.tenant})

    @task(1)
    def broken_export(self):
        self.client.request("GET", "/error/1", name="export", context={"tenant": self.tenant})

# A team's own options: added in init_command_line_parser, read in @events.init and in tasks.
import logging

from locust import HttpUser, constant, events, task

settings = {}


@events.init_command_line_parser.add_listener
def add_options(parser):
    parser.add_argument("--api-path", type=str, default="/", help="path to hit")
    parser.add_argument("--fib-n", type=int, default=5, help="fib argument")
    parser.add_argument("--with-misses", action="store_true", default=False)


@events.init.add_listener
def on_init(environment, **kwargs):
    options = environment.parsed_options
    settings["path"] = options.api_path
    settings["n"] = options.fib_n
    logging.info("path %s n %d", options.api_path, options.fib_n)


class Configured(HttpUser):
    wait_time = constant(0.2)

    @task(2)
    def main(self):
        self.client.get(settings["path"], name="configured path")

    @task
    def fib(self):
        self.client.get(f"/fib/{settings['n']}", name=f"fib {settings['n']}")

    @task
    def miss(self):
        if self.environment.parsed_options.with_misses:
            self.client.get("/not-here", name="miss")

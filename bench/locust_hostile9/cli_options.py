# Options of the file's own (type, default, choices, a switch) and the host from the environment.
import os

from locust import HttpUser, constant, events, task


@events.init_command_line_parser.add_listener
def options(parser):
    parser.add_argument("--tenant", type=str, default="acme", help="tenant")
    parser.add_argument("--pages", type=int, default=2)
    parser.add_argument("--mode", choices=["read", "write"], default="read")
    parser.add_argument("--trace", action="store_true", default=False)


class Tenant(HttpUser):
    host = os.environ.get("TARGET_HOST", "http://127.0.0.1:1")
    wait_time = constant(0.25)

    @task
    def visit(self):
        o = self.environment.parsed_options
        for page in range(o.pages):
            self.client.get(f"/json?page={page}", name=f"{o.tenant} {o.mode} page {page} trace {o.trace}")

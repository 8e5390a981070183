# args: -u 10 -r 10 -t 8s --page-size 7 --tenant acme
# Options of the file's own on the command line, read by the users through parsed_options.
from locust import HttpUser, constant, events, task


@events.init_command_line_parser.add_listener
def _(parser):
    parser.add_argument("--page-size", type=int, default=10, help="items per page")
    parser.add_argument("--tenant", type=str, default="default", help="tenant header")


class Pager(HttpUser):
    wait_time = constant(0.2)

    def on_start(self):
        opts = self.environment.parsed_options
        self.client.headers["X-Tenant"] = opts.tenant
        self.page_size = int(opts.page_size)

    @task
    def page(self):
        for page in range(1, 3):
            self.client.get("/json", params={"page": page, "size": self.page_size}, name=f"page {page}")

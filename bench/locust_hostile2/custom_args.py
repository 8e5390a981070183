# A custom argument (init_command_line_parser) read by test_start and the users.
from locust import HttpUser, constant, events, task

settings = {}


@events.init_command_line_parser.add_listener
def _(parser):
    parser.add_argument("--env-name", type=str, env_var="LOCUST_ENV_NAME", default="dev", help="target env")
    parser.add_argument("--page-size", type=int, default=10)
    parser.add_argument("--with-admin", action="store_true", default=False)


@events.test_start.add_listener
def _(environment, **kw):
    o = environment.parsed_options
    settings["env"] = o.env_name
    settings["size"] = o.page_size
    print(f"env={o.env_name} size={o.page_size} admin={o.with_admin} users={o.num_users} host={environment.host}")


class Pager(HttpUser):
    wait_time = constant(0.3)

    @task
    def page(self):
        size = self.environment.parsed_options.page_size
        self.client.get(f"/validate?id={size}&name={settings['env']}", name=f"page {settings['env']}")
        if self.environment.parsed_options.with_admin:
            self.client.get("/cpu?ms=2", name="admin")

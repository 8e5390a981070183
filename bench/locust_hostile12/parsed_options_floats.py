# The run's options as a task reads them: spawn_rate a float, num_users an int, run_time seconds.
from locust import HttpUser, constant, task


class Reads(HttpUser):
    wait_time = constant(0.25)

    @task
    def reads(self):
        o = self.environment.parsed_options
        self.client.get("/", name=f"opts {o.num_users} {o.spawn_rate} {o.stop_timeout}")

# A shape with use_common_options: -u, -r and -t from the command line reach tick() through its runner.
from locust import HttpUser, LoadTestShape, constant, task


class Reader(HttpUser):
    wait_time = constant(0.5)

    @task
    def read(self):
        self.client.get("/json", name="read")


class Scaled(LoadTestShape):
    use_common_options = True

    def tick(self):
        run_time = self.get_run_time()
        if run_time > 5:
            return None
        return (self.runner.environment.parsed_options.num_users, 10)

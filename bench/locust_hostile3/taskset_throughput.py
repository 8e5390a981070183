# constant_throughput on a TaskSet of its own, inside a user with another wait.
from locust import HttpUser, TaskSet, constant, constant_throughput, task


class Poll(TaskSet):
    wait_time = constant_throughput(4)

    @task(5)
    def poll(self):
        self.client.get("/json", name="poll")

    @task
    def out(self):
        self.interrupt()


class Client(HttpUser):
    wait_time = constant(1)
    tasks = {Poll: 3}

    @task
    def home(self):
        self.client.get("/", name="home")

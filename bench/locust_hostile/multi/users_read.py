# Readers, one file of a folder the team runs with -f multi/ (or -f users_read.py,users_write.py).
from locust import HttpUser, constant, task


class Reader(HttpUser):
    wait_time = constant(0.5)

    @task
    def read(self):
        self.client.get("/json", name="read")

# args: -u 20 -r 20 -t 12s
# Users on a base class of a module beside it (bases/api.py: its wait, its login, a helper), and a user of
# that module the locustfile imports, which Locust runs as one of the file's users.
from locust import task
from bases.api import ApiUser, Reporter


class Reader(ApiUser):
    weight = 3

    @task
    def read(self):
        self.fetch("/user", "user")

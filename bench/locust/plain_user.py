# args: -u 4 -r 4 -t 6s
# A User without a client beside an HttpUser: the plain one walks a MarkovTaskSet (its steps printed and
# counted at the end), the other sends. Only the HttpUser's requests are counted, on both tools.
from locust import HttpUser, MarkovTaskSet, User, constant, task, transition

steps = {"browse": 0, "think": 0}


class Walk(MarkovTaskSet):
    @transition("think", weight=3)
    def browse(self):
        steps["browse"] += 1

    @transition("browse")
    def think(self):
        steps["think"] += 1


class Planner(User):
    tasks = [Walk]
    wait_time = constant(0.1)


class Reader(HttpUser):
    wait_time = constant(0.1)

    @task
    def read(self):
        self.client.get("/json", name="read")

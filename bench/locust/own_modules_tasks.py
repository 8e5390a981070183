# args: -u 24 -r 24 -t 12s
# Task sets from a package of its folder (journeys/: its __init__.py gathers its modules' sets).
from locust import HttpUser, constant
from journeys import Browse, Checkout


class Browser(HttpUser):
    weight = 2
    wait_time = constant(0.25)
    tasks = [Browse]


class Buyer(HttpUser):
    wait_time = constant(0.25)
    tasks = [Checkout]

# Tasks built in a loop: a lambda that binds its loop variable by default, and one that reads it late.
from locust import HttpUser, constant, task

PATHS = ["/", "/json", "/validate?id=1&name=alice"]


def make_tasks():
    bound = []
    late = []
    for i, path in enumerate(PATHS):
        bound.append(lambda user, path=path, i=i: user.client.get(path, name=f"bound {i}"))
        late.append(lambda user: user.client.get(PATHS[0], name=f"late {i}"))
    return bound + late


class Looper(HttpUser):
    wait_time = constant(0.1)
    tasks = make_tasks()

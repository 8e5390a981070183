# args: -u 40 -r 40 -t 15s
# An older suite's style: plain module functions in tasks lists (repeated for weight), a TaskSet that leaves
# by raising InterruptTaskSet, and a task that retries at once (RescheduleTask) when validation fails.
import random

from locust import HttpUser, TaskSet, constant
from locust.exception import InterruptTaskSet, RescheduleTask


def index(user):
    user.client.get("/", name="index")


def news(user):
    user.client.get("/static/news.html", name="news")


def validate(user):
    name = random.choice(["al", "alice"])
    r = user.client.get("/validate", params={"id": 7, "name": name}, name="validate", catch_response=True)
    with r:
        if r.status_code == 400:
            r.success()
            raise RescheduleTask()


def leave(taskset):
    taskset.client.get("/json", name="leave")
    raise InterruptTaskSet(reschedule=False)


class Browsing(TaskSet):
    tasks = [news, news, leave]


class Visitor(HttpUser):
    wait_time = constant(0.5)
    tasks = [index, index, validate, Browsing]

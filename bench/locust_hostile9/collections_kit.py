# collections and itertools as a team uses them to spread users over endpoints.
import itertools
from collections import Counter, defaultdict, deque

from locust import HttpUser, constant, task

ENDPOINTS = itertools.cycle(["/", "/json", "/validate?id=1&name=alice"])


class Spreader(HttpUser):
    wait_time = constant(0.2)

    def on_start(self):
        self.by_status = defaultdict(list)
        self.seen = Counter()
        self.recent = deque(maxlen=2)
        self.meta = {}

    @task
    def spread(self):
        path = next(ENDPOINTS)
        r = self.client.get(path, name="spread")
        self.by_status[r.status_code].append(path)
        self.seen[path.split("?")[0]] += 1
        self.recent.append(path)
        self.meta.setdefault("first", path)
        top = self.seen.most_common(1)[0][1]
        if len(self.recent) == 2 and top % 5 == 0:
            self.client.get("/", name=f"report {len(self.by_status)} {self.meta.get('missing', 'none')}")

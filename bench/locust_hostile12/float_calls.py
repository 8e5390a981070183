# Floats out of function calls, in names as Python writes them: print, f-strings, %, str.format, logging.
import logging
import math
import statistics
import time
from math import sqrt as root

from locust import HttpUser, constant, events, task

TIMES = []


def ratio(a, b):
    return a / b


def mean_of(xs):
    m = sum(xs) / len(xs)
    return m


class Numbers(HttpUser):
    wait_time = constant(0.2)

    def on_start(self):
        self.total = 0.0

    @task
    def names(self):
        started = time.time()
        xs = [float(n) for n in range(1, 4)]
        self.total += 2
        TIMES.append(ratio(4, 2))
        self.client.get("/", name=f"sum {sum(xs)} {sum([0.5, 0.5])} {max(1, 2.0)} {min(3.0, 4)}")
        self.client.get("/", name=f"math {math.sqrt(4)} {root(9)} {math.floor(2.5)} {math.pow(2, 3)} {math.pi:.2f}")
        self.client.get("/", name=f"call {ratio(6, 3)} {mean_of(xs)} {statistics.mean([1.0, 3.0])} {round(4.0, 1)}")
        self.client.get("/", name=f"spec {float(2):>6} {float(3):<5}| {1e20:,} {ratio(9, 3)!r} {float(5)=}")
        self.client.get("/", name="pct %s %r %d %5s" % (float(2), ratio(2, 1), float(3), math.fabs(-4)))
        self.client.get("/", name="fmt {} {:>5} {x}".format(float(1), ratio(8, 4), x=root(16)))
        self.client.get("/", name="attr " + str(self.total - self.total) + " " + str(abs(self.total * 0)))
        self.client.get("/", name=f"big {float('inf')} {math.inf} {-math.inf} {1e-05 * 1} {10.0 ** 20}")
        self.client.get("/", name=f"list {sum(TIMES) / len(TIMES)} {statistics.median(TIMES)} {xs[:1]} {sorted(xs)[-1:]}")
        elapsed = time.time() - started
        logging.info("took %s then %s", ratio(10, 5), elapsed >= 0)
        print("printed", ratio(12, 4), float(1), math.ceil(1.5))


@events.quitting.add_listener
def _(environment, **kw):
    print("times", statistics.mean(TIMES) if TIMES else 0.0, "{:.1f}".format(ratio(1, 4)))

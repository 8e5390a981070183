# args: -u 10 -r 10 -t 8s
# Reports over a date window: datetime arithmetic, ISO timestamps with a zone, a per-user sequence.
from datetime import datetime, timedelta, timezone

from locust import HttpUser, SequentialTaskSet, constant, task


class Reports(SequentialTaskSet):
    @task
    def daily(self):
        end = datetime.now(timezone.utc)
        start = end - timedelta(hours=24)
        self.client.get("/json", params={"from": start.isoformat(), "to": end.isoformat()}, name="daily")

    @task
    def weekly(self):
        end = datetime.now()
        start = end - timedelta(weeks=1)
        if (end - start).total_seconds() != 7 * 24 * 3600:
            raise ValueError("bad window")
        self.client.get(f"/sleep?ms=5&from={start.strftime('%Y%m%d')}", name="weekly")

    @task
    def stamp(self):
        self.client.post("/echo", json={"at": datetime.utcnow().isoformat() + "Z"}, name="stamp")


class Analyst(HttpUser):
    wait_time = constant(0.2)
    tasks = [Reports]

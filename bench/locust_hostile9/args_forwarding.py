# Helpers that forward *args and **kwargs to the client, and a task that takes *args.
from locust import HttpUser, constant, task


def get(user, path, *args, label=None, **kwargs):
    kwargs.setdefault("name", label or path)
    return user.client.get(path, *args, **kwargs)


def combine(*parts, sep="/"):
    return sep + sep.join(p.strip("/") for p in parts)


class Forwarder(HttpUser):
    wait_time = constant(0.2)

    @task
    def forward(self, *args):
        get(self, combine("json"), label=f"forward {len(args)}")
        get(self, "/validate", params={"id": 1, "name": "alice"}, label="params")
        opts = {"headers": {"X-A": "1"}}
        get(self, "/", **opts)

# args: -u 20 -r 20 -t 12s
# A profile team's edits: PATCH and PUT through client.request, catch_response judged inside the with block.
import json
import random

from locust import HttpUser, between, task


class ProfileEditor(HttpUser):
    wait_time = between(0.2, 0.4)

    @task(3)
    def patch_profile(self):
        body = {"nickname": f"user{random.randint(1, 99)}"}
        with self.client.request("POST", "/echo", json=body, name="patch profile", catch_response=True) as r:
            if r.json().get("nickname") != body["nickname"]:
                r.failure("profile not echoed")

    @task(2)
    def put_settings(self):
        with self.client.request("PUT", "/settings", data=json.dumps({"theme": "dark"}),
                                 headers={"Content-Type": "application/json"}, catch_response=True) as r:
            if r.status_code == 404:
                r.success()  # the settings service is optional in this environment

    @task(1)
    def bad_patch(self):
        with self.client.request("PATCH", "/validate?id=x", name="bad patch", catch_response=True) as resp:
            if resp.status_code != 200:
                resp.failure(f"got {resp.status_code}")

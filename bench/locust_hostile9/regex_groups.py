# Reading the answer with re: groups, named groups, findall and sub, as a team parses a page.
import re

from locust import HttpUser, constant, task

ID = re.compile(r"id=(\d+)&name=(?P<name>\w+)")


class Parser(HttpUser):
    wait_time = constant(0.25)

    @task
    def parse(self):
        r = self.client.get("/validate?id=42&name=bobby", name="validate")
        m = ID.search(r.request.url if hasattr(r, "request") else r.url)
        ident, who = (m.group(1), m.group("name")) if m else ("?", "?")
        self.client.get("/", name=f"id {ident} {who} {m.groups() if m else None}")
        body = self.client.get("/json", name="json").text
        keys = re.findall(r'"(\w+)":', body)
        self.client.get("/", name=f"keys {len(keys) > 0} {re.sub(r'[aeiou]', '_', 'locust')}")
        if re.match(r"^\{", body) and not re.fullmatch(r"\d+", body):
            self.client.get("/", name="json object")

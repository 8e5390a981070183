# Logging in, shared by the locustfiles of a team (a folder without __init__.py: a namespace package).
import random

USERS = ["alice", "bob", "carol"]


def login(user, name=None):
    response = user.client.post("/login", json={"user": name or random.choice(USERS), "password": "secret"})
    user.token = response.json()["token"]
    return {"Authorization": f"Bearer {user.token}"}

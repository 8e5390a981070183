# The team's config.py is not in its repository (each member keeps one): this one names the built-in
# target's routes for each key its locustfiles read.
config = {
    "user_id": "test",
    "password": "test",
    "token": "token",
    "login": "/login",
    "recommend": "/echo",
    "search": "/echo",
    "kosbert": "/echo",
    "kcelectra": "/echo",
    "chatbot": "/echo",
}

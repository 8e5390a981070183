# From github.com/21WelfareForEveryone/WelfareForEveryOne test/ksbert.py
# at 5baf360b0007cd429ed8a081bc7c512fc5e8cc23 (MIT, LICENSE beside it).
from locust import HttpUser, between, task
from config import config
import json

class test(HttpUser):
    
    @task
    def connect(self):
        payload = {
            "token": config["token"],
            "chat_message": "어린이복지"
        }
        
        headers = {'content-type': 'application/json'}
        
        self.client.post(config["chatbot"], data=json.dumps(payload), headers=headers)
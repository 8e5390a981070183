// args: -u 2 -d 3s
// Licence: ISC, its package.json states; its text: wild_licences/ridzeal+k6-poc.LICENSE.
// From github.com/ridzeal/k6-poc, smoke-test.js@ad6b70037ed7: the team's script unchanged but
// for its one URL constant (BASE_URL, https://test-api.k6.io); -u/-d shorten 10 VUs for 10s.
import http from 'k6/http';
import { check, group, sleep, fail } from 'k6';

export let options = {
  vus: 10, // 1 user looping for 1 minute
  duration: '10s',

  thresholds: {
    http_req_duration: ['p(99)<1500'], // 99% of requests must complete below 1.5s
  },
};

const BASE_URL = 'http://127.0.0.1:18481';
const USERNAME = 'TestUser';
const PASSWORD = 'SuperCroc2020';

export default () => {
  let loginRes = http.post(`${BASE_URL}/auth/token/login/`, {
    username: USERNAME,
    password: PASSWORD,
  });

  check(loginRes, {
    'logged in successfully': (resp) => resp.json('access') !== '',
  });

  let authHeaders = {
    headers: {
      Authorization: `Bearer ${loginRes.json('access')}`,
    },
  };

  let myObjects = http.get(`${BASE_URL}/my/crocodiles/`, authHeaders).json();
  check(myObjects, { 'retrieved crocodiles': (obj) => obj.length > 0 });

  sleep(1);
};

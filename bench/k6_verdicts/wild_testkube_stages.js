// args: --stage 2s:4,3ms:3,1s:2
// Licence: MIT; its text: wild_licences/DevoteamNL+testkube.LICENSE.
// From github.com/DevoteamNL/testkube, test/k6/executor-tests/k6-stages-test.js: the team's script unchanged
// but for its one URL (https://httpbin.test.k6.io/); --stage shortens its stages, a 3ms one kept.
import http from 'k6/http';
import { check, sleep } from 'k6';

export const options = {
  stages: [
    { duration: '180s', target: 200 },
    { duration: '3ms', target: 180 },
    { duration: '60s', target: 130 },
  ],
};

export default function () {
  const res = http.get('http://127.0.0.1:18481/');
  check(res, { 'status was 200': (r) => r.status == 200 });
  sleep(1);
}


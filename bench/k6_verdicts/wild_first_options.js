// args: -u 2 -d 3s
// Licence: ISC, its package.json states; its text: wild_licences/luckyby+k6-first-tests.LICENSE.
// From github.com/luckyby/k6-first-tests, script01-with-options.js: the team's script unchanged but for its
// one URL (https://test.k6.io); -u/-d shorten 10 VUs for 30s.
// for run:
// k6 run --out json=results/script01-01.json script01-with-options.js
import http from 'k6/http';
import { sleep } from 'k6';
export const options = {
  vus: 10,
  duration: '30s',
};

export default function () {
  http.get('http://127.0.0.1:18481');
  sleep(1);
}

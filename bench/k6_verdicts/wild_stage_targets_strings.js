// args: --stage 2s:3,2s:3
// Licence: ISC, its package.json states; its text: wild_licences/ramustha+tokita-performance.LICENSE.
// From github.com/ramustha/tokita-performance, src/auth.js@293d596d749f: the team's script unchanged but
// for its one URL (https://test.k6.io); --stage shortens its two stages, whose targets are strings.
import http from 'k6/http';
import {sleep} from 'k6';

export const options = {
  scenarios: {
    auth: {
      executor: 'ramping-vus',
      exec: 'auth',
      startVUs: 0,
      stages: [
        { duration: '20s', target: '20'},
        { duration: '50s', target: '20'},
      ]
    }
  }
};

export function auth() {
  console.log('perform auth scenario')
  http.get('http://127.0.0.1:18481');
  sleep(1);
}

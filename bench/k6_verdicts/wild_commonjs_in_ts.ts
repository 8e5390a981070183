// args: -u 2 -d 3s
// Licence: ISC, its backend/package.json states; its text:
// wild_licences/whitehack22+event_ticketing_system.LICENSE.
// From github.com/whitehack22/event_ticketing_system, backend/load-tests/my_first_test.ts: the team's script
// unchanged but for its one URL (http://test.k6.io); -u/-d shorten 10 VUs for 30s.
const http = require('k6/http');
const k6 = require('k6');

module.exports.options = {
  vus: 10,
  duration: '30s',
};

module.exports.default = function () {
  http.get('http://127.0.0.1:18481');
  k6.sleep(1);
};

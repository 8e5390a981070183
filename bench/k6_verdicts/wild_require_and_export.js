// args: -i 2
// Licence: ISC, its package.json states; its text: wild_licences/nkshun+jest-actions.LICENSE.
// From github.com/nkshun/jest-actions, test.js: the team's script unchanged but for its one URL
// (http://localhost:3000/).
const { check } = require('k6');
const http = require('k6/http');

export default function() {
  const responses = http.batch([
    "http://127.0.0.1:18481/"
  ]);

  check(responses[0], {
    "ok status": res => res.status === 200,
    "ok text": res => res.body === 'Hi! shun',
  });
};

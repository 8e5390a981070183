// args: 
// Licence: ISC, its package.json states; its text: wild_licences/rpp2209-sdc-palladium+Question.LICENSE.
// From github.com/rpp2209-sdc-palladium/Question, stress_test/options.js: the team's script unchanged but
// for nothing (it names no URL).
import http from 'k6/http';

export default {
  scenarios: {
    constant_request_rate: {
      executor: 'constant-arrival-rate',
      rate: 2000,
      timeUnit: '1s', // 1000 iterations per second, i.e. 1000 RPS
      duration: '30s',
      preAllocatedVUs: 100, // how large the initial pool of VUs would be
      maxVUs: 10000, // if the preAllocatedVUs are not enough, we can initialize more
    },
  },
};

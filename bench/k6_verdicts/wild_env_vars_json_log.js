// args: -i 1 -e BASE_URL=http://127.0.0.1:18481
// Licence: ISC, its package.json states; its text: wild_licences/anggadarkprince+learn-k6.LICENSE.
// From github.com/anggadarkprince/learn-k6 at df2c69e1ffd4, scripts/env-vars.js: the team's script unchanged.
import http from 'k6/http';

export default function () {
    // k6 run -e BASE_URL=https://test.k6.io env-vars.js
    const baseUrl = __ENV.BASE_URL || 'https://test-api.k6.io';
    const path = __ENV.PATH || 'public/crocodiles/';
    const url = `${baseUrl}/${path}`;
    const response = http.get(url);
    console.log(response.json());
}

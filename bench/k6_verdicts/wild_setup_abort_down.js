// args: -u 2 -d 2s
// Licence: ISC, its package.json states; its text: wild_licences/anggadarkprince+learn-k6.LICENSE.
// From github.com/anggadarkprince/learn-k6 at df2c69e1ffd4, abort.js: the team's script unchanged but for its URLs
// (https://test.k6.local: a closed port here, the application down); -u/-d shorten 10 VUs for 10s.
import http from 'k6/http';
import {sleep} from "k6";
import exec from "k6/execution";

export const options = {
    vus: 10,
    duration: '10s',
}

export function setup() {
    const res = http.get('http://127.0.0.1:9/status');
    if (res.error) {
        exec.test.abort('Aborting test. Application is down');
    }
}

export default function () {
    http.get('http://127.0.0.1:9/some-page');
    sleep(1);
    // ctrl + c to abort the test
}

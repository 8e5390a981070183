// args: -u 2 -d 2s
// Licence: ISC, its package.json states; its text: wild_licences/anggadarkprince+learn-k6.LICENSE.
// From github.com/anggadarkprince/learn-k6 at df2c69e1ffd4, lifecycle.js: the team's script unchanged but for its
// URLs (https://run.mocky.io/v3/...); -d shortens 5s.
import http from 'k6/http';
import {sleep} from "k6";

export const options = {
    vus: 2,
    duration: '5s',
}

console.log('-- init stage --');

export function setup() {
    console.log('-- setup stage --'); // only run once
    sleep(1);
    return {foo: 'bar'};
}

export default function (data) {
    console.log('-- VU stage --'); // run multiple
    // data (parameter) comes from setup
    console.log(data);
    http.get('http://127.0.0.1:18481/status/200'); // api should return 200
    http.get('http://127.0.0.1:18481/status/201'); // api should return 201
    sleep(1);
    // after an iteration completed, a VU will repeat as long as the duration is not completed yet
}

export function teardown(data) {
    // data (parameter) comes from setup
    console.log('-- teardown stage --'); // only run once
}

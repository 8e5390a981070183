// args: -d 4s
// Licence: ISC, its package.json states; its text: wild_licences/arunk2493+k6performancetesting.LICENSE.
// From github.com/arunk2493/k6performancetesting, performancetesting/src/tests/samples/threshold2.js: the
// team's script unchanged but for its base URL (https://test-api.k6.io: 404 here); -d shortens its 10s.
import http from 'k6/http';
import { group, sleep } from 'k6';

export let options = {
    thresholds: {
        'group_duration{group:::individualRequests}': ['avg > 1'],
        'group_duration{group:::batchRequests}': ['avg < 400'],
    },
    vus: 3,
    duration: '10s',
};

export default function () {
    group('individualRequests', function () {
        http.get('http://127.0.0.1:18481/public/crocodiles/1/');
        http.get('http://127.0.0.1:18481/public/crocodiles/2/');
        http.get('http://127.0.0.1:18481/public/crocodiles/3/');
    });

    group('batchRequests', function () {
        http.batch([
            ['GET', `http://127.0.0.1:18481/public/crocodiles/1/`],
            ['GET', `http://127.0.0.1:18481/public/crocodiles/2/`],
            ['GET', `http://127.0.0.1:18481/public/crocodiles/3/`],
        ]);
    });

    sleep(1);
}

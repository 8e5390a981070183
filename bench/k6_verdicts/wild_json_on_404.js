// args: -i 2
// Licence: MIT, its package.json states; its text: wild_licences/leo-badell+K6-course.LICENSE.
// From github.com/leo-badell/K6-course, BuildingHTTPRequest/http-get_II.js: the team's script unchanged but
// for its base URL (https://test-api.k6.io: 404 here).
import http from 'k6/http';
import { check } from 'k6';

export default function () {
    let res = http.get('http://127.0.0.1:18481/public/crocodiles/');

    res = http.get('http://127.0.0.1:18481/public/crocodiles/7/');

    console.log(res.json().name);

    check(res, {
        'status is 200': (r) => r.status === 200,
        'Crocodile is Sobek': (r) => r.json().name === 'Sobek'
    });

}

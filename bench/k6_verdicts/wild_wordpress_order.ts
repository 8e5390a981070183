// args: -u 2 -d 3s
// Licence: MIT, its package.json states; its text: wild_licences/presslabs+wordpress-load-tests.LICENSE.
// From github.com/presslabs/wordpress-load-tests, src/order.ts: the team's script unchanged but for its one
// URL (https://test-api.k6.io); -u/-d shorten 10 VUs for 10s.
import { sleep, check } from 'k6'
import { Options } from 'k6/options'
import http from 'k6/http'

export const options: Options = {
    vus: 10,
    duration: '10s'
}

export default () => {
    const res = http.get('http://127.0.0.1:18481')
    check(res, {
        'status is 200': () => res.status === 200,
    })
    sleep(1)
}

// args: --rps 100 -u 2 -d 1s
// Licence: MIT; its text: wild_licences/i-shinya+k6-github-actions-sample.LICENSE.
// From github.com/i-shinya/k6-github-actions-sample at 68268691aae0, simple-k6-sample.js: the team's script unchanged
// but for its one URL (http://localhost:80); its README runs it with --rps 100, -u/-d shorten 1000 to 2000 VUs.
import { check } from "k6"
import http from "k6/http"

export const options = {
    // 閾値（設定した条件を満たせないと負荷テストがfailになる）
    thresholds: {
        // リクエストの失敗が1%以内
        http_req_failed: ["rate<0.01"],
        // 90パーセンタイルが500ms以内、95パーセンタイルが1000ms以内のレイテンシ
        http_req_duration: ["p(90)<500", 'p(95) < 1000']
    },
    // テストステージ（順番に実行される）
    stages: [
        // targetは同時実行数、durationは実行時間
        { target: 1000, duration: '10s' },
        { target: 2000, duration: '10s' }
    ]
}

// テストケース
export default function () {
    const res = http.get(
        "http://127.0.0.1:18481"
    )
    check(res, {
        'is_status_200': (r) => r.status === 200
    })
}

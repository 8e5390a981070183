// args: -d 3s
// Licence: MIT; its text: wild_licences/UKHO+k6-workshop.LICENSE.
// From github.com/UKHO/k6-workshop, src/loadTest.js: the team's script unchanged but for its one URL
// (https://test.k6.io); -d shortens its 10s.
import http from "k6/http";
import {sleep } from "k6";

export const options = {
	vus: 1,
	duration: '10s',
  };

export default function () {
	const res = http.get('http://127.0.0.1:18481');
	console.log(res.status);
	sleep(1);
}




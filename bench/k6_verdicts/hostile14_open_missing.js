// args: -i 1
// open() of a file that is not there, in the init code: the script fails before any load.
import http from "k6/http";

const users = JSON.parse(open("./data/no_such_users.json"));

export default function () {
  http.get(`http://127.0.0.1:18481/get?u=${users[0]}`);
}

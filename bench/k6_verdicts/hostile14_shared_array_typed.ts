// args: -u 2 -i 6
// TypeScript: a SharedArray of typed rows from a JSON file, read by index; writing to it is refused.
import http from "k6/http";
import { check } from "k6";
import { SharedArray } from "k6/data";

interface User {
  name: string;
}

const users: SharedArray = new SharedArray("users", (): User[] => {
  const parsed = JSON.parse(open("./data/users.json"));
  return (Array.isArray(parsed) ? parsed : parsed.users) as User[];
});

export const options = { thresholds: { checks: ["rate==1"] } };

export default function (): void {
  const user = users[__ITER % users.length] as User;
  let writeRefused = false;
  try {
    (users as unknown as User[])[0] = { name: "changed" };
  } catch (_e) {
    writeRefused = true;
  }
  check(user, {
    "a row": (u: User) => u !== undefined,
    "still its own": () => (users[0] as User).name !== "changed",
  });
  check(writeRefused, { "write refused": (r: boolean) => r });
  http.get(`http://127.0.0.1:18481/get?n=${users.length}`);
}

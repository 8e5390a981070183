// args: -i 2
// group_duration of two groups' runs (0.1 s and 0.5 s): its median between them.
import { group, sleep } from "k6";

export const options = { thresholds: { group_duration: ["med>200", "med<450"] } };

export default function () {
  group("work", () => sleep(__ITER === 0 ? 0.1 : 0.5));
}

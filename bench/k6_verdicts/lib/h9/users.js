// Test data kept beside the module that reads it: open() resolves against this file's folder.
import { SharedArray } from "k6/data";

export const users = new SharedArray("h9 users", () => JSON.parse(open("./users.json")));

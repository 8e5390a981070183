// The catalog fixture, read once per test: the path is this module's own, as the module sits in lib/h3/.
import { SharedArray } from "k6/data";

export const products = new SharedArray("products", () => JSON.parse(open("../../data/h3_products.json")));

// The suite's config: the environment names a JSON file, read once in init code.
const env = __ENV.ENVIRONMENT || "staging";
export const config = JSON.parse(open(`../../data/h8_${env}.json`));
export const BASE = config.baseUrl;

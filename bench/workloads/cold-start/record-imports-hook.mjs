// The resolve hook behind ./record-imports.mjs (module hooks run off-thread on Node 20).
import { appendFileSync } from "node:fs";

let log;

export function initialize(data) {
  log = data?.log;
  if (typeof log !== "string" || log === "") throw new TypeError("record-imports: set BENCH_IMPORT_LOG to the file to append module URLs to");
}

export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(log, `${result.url}\n`);
  return result;
}

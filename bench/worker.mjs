// One repetition of one workload, in a process of its own so its peak RSS is
// its own: `node bench/worker.mjs <workload-id> '<profile json>'`; or of
// workloads measured interleaved (lib/interleave.mjs), their ids joined by
// commas. Prints one JSON line with the figure (an array of them for
// interleaved workloads); exits non-zero on any failure,
// including a workload that leaves a server or socket open after close().
import { workload } from "./catalog.mjs";
import { measureInterleaved } from "./lib/interleave.mjs";
import { measureOnce } from "./lib/measure.mjs";

const LINGER_MS = 5_000;

async function main() {
  const [id, profileJson] = process.argv.slice(2);
  if (!id || !profileJson) throw new TypeError("usage: node bench/worker.mjs <workload-id> '<profile json>'");
  const ids = id.split(",");
  const profile = JSON.parse(profileJson);
  const result = ids.length > 1 ? await measureInterleaved(ids.map(workload), profile) : await measureOnce(workload(id), profile);
  const maxRssBytes = process.resourceUsage().maxRSS * 1024;
  const withRss = (one) => ({ ...one, maxRssBytes });
  process.stdout.write(`${JSON.stringify(Array.isArray(result) ? result.map(withRss) : withRss(result))}\n`);
}

main().then(
  () => {
    // Everything was closed, so the event loop should drain now; if it does
    // not, something stayed open, and the run says so instead of hanging.
    setTimeout(() => {
      console.error(`workload left handles open ${LINGER_MS} ms after close(): ${process.getActiveResourcesInfo().join(", ")}`);
      process.exit(3);
    }, LINGER_MS).unref();
  },
  (error) => {
    console.error(error?.stack ?? String(error));
    process.exit(1);
  },
);

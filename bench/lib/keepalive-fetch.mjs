// A fetch for loopback benchmarks: `node:http` with a keep-alive Agent behind
// the `fetch(url, init) → Response` shape both SDKs' HTTP client transports
// accept as an option. On this machine the global fetch (undici) costs ~1 ms
// per request on loopback while node:http costs ~0.15 ms, so with the global
// fetch every HTTP figure measures undici, not the SDKs. Both SDKs and the
// echo ceiling get this same fetch.
import { Agent, request } from "node:http";
import { Readable } from "node:stream";

const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);

/**
 * @param {{ maxSockets?: number }} [options]
 * @returns {{ fetch: typeof fetch, close(): void }}
 */
export function keepAliveFetch({ maxSockets = 64 } = {}) {
  const agent = new Agent({ keepAlive: true, maxSockets });
  const fetchLike = async (input, init = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.protocol !== "http:") throw new TypeError(`keepAliveFetch speaks http: only, got ${url.protocol}`);
    const headers = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    let body = init.body ?? undefined;
    if (body !== undefined && typeof body !== "string" && !(body instanceof Uint8Array)) {
      body = Buffer.from(await new Response(body).arrayBuffer());
    }
    if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
    return new Promise((resolve, reject) => {
      const outgoing = request(url, { method: init.method ?? "GET", headers, agent, signal: init.signal ?? undefined }, (res) => {
        const responseHeaders = new Headers();
        for (let i = 0; i < res.rawHeaders.length; i += 2) responseHeaders.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
        const status = res.statusCode ?? 0;
        if (NULL_BODY_STATUS.has(status) || init.method === "HEAD") {
          res.resume();
          return resolve(new Response(null, { status, headers: responseHeaders }));
        }
        if ((responseHeaders.get("content-type") ?? "").startsWith("text/event-stream")) {
          return resolve(new Response(Readable.toWeb(res), { status, headers: responseHeaders }));
        }
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => resolve(new Response(Buffer.concat(chunks), { status, headers: responseHeaders })));
      });
      outgoing.on("error", reject);
      outgoing.end(body);
    });
  };
  return { fetch: fetchLike, close: () => agent.destroy() };
}

/**
 * The fetch a workload's client uses: `"keepalive"` (node:http, above) or
 * `"global"` (undici, for reference).
 * @param {"keepalive"|"global"} kind
 */
export function clientFetch(kind) {
  if (kind === "global") return { fetch: globalThis.fetch, close() {} };
  if (kind === "keepalive") return keepAliveFetch();
  throw new RangeError(`unknown client fetch "${kind}"; use "keepalive" or "global"`);
}

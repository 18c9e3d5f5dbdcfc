// Plain `tools/call` over HTTP for every server, one load client for all
// (../lib/raw-client.mjs): each server in a process of its own pinned to its
// own CPU, its CPU time per call the figure.
import { rawToolsClient } from "../lib/raw-client.mjs";
import { startServerProcess } from "../lib/server-process.mjs";
import { ECHO_TEXT, confirmedText } from "./fixtures.mjs";

const here = (path) => new URL(path, import.meta.url).href;
/** server → [module, factory, options] of the server process, per era. */
const SERVERS = {
  ours: (era, session) => [here("./ours.mjs"), "serveBench", { legacy: era !== "2026-07-28", stateless: !session }],
  official: (era, session) =>
    era === "2026-07-28"
      ? [here("./official.mjs"), "httpServer", {}]
      : session
        ? [here("./official.mjs"), "legacyHttpServer", { jsonResponse: true }]
        : [here("./official.mjs"), "httpServer", { legacy: "stateless" }],
  officialSse: () => [here("./official.mjs"), "legacyHttpServer", { jsonResponse: false }],
  tmcp: () => [here("./tmcp.mjs"), "httpServer", {}],
  echo: () => [here("./echo.mjs"), "echoServer", {}],
  checks: () => [here("./checks-floor.mjs"), "checksFloorServer", {}],
  mrtrFloor: () => [here("./mrtr-floor.mjs"), "mrtrFloorServer", {}],
};

/** The bare servers: no session, so no version agreed. */
const FLOORS = new Set(["echo", "checks", "mrtrFloor"]);

/**
 * @param {{ server: keyof typeof SERVERS, era: "2026-07-28" | "2025-11-25", session?: boolean, mrtr?: boolean, expectVersion?: string }} options
 *   `session`: a 2025 client opens a session first (the default); without, it sends bare 2025 calls
 *   `mrtr`: each call is the confirm tool's two rounds (ours and the official server have it)
 *   `expectVersion`: the version the session must agree (tmcp's newest is 2025-06-18)
 */
export async function plainHttp({ server, era, session = true, mrtr = false, expectVersion = era }) {
  const [module, factory, options] = SERVERS[server](era, session);
  const remote = await startServerProcess(module, factory, options);
  let client;
  try {
    client = await rawToolsClient(remote.url, { era, session, mrtr });
  } catch (error) {
    await remote.close();
    throw error;
  }
  return {
    serverCpu: remote.cpuMicros,
    call: client.call,
    startLatencies: client.startLatencies,
    latencyP50: client.latencyP50,
    check(text) {
      if (!FLOORS.has(server) && session && client.protocolVersion !== expectVersion) throw new Error(`expected ${expectVersion}, got ${client.protocolVersion}`);
      const expected = mrtr ? confirmedText(ECHO_TEXT) : ECHO_TEXT;
      if (text !== expected) throw new Error(`expected "${expected}", got "${text}"`);
    },
    async close() {
      client.close();
      await remote.close();
    },
  };
}

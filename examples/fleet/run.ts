// The fleet example end to end, as a function the test suite runs: three
// instances behind nginx round-robin, an SDK client calling through nginx
// (each call's rounds spread over the instances), a rolling restart to a
// new key ring in the middle, and the same calls still completing.
import { Client, type ElicitRequestParams, type ElicitResult } from "mcp-roundtrip/client";
import { Fleet, type FleetPrograms } from "./fleet.js";

/** What the example saw. */
export interface FleetExampleOutcome {
  /** The result text of every call, in order. */
  results: string[];
  /** Which instances answered the final rounds (from the result text). */
  instances: string[];
  /** The key-ring line each instance logged at its last start. */
  rings: string[];
}

async function answer(params: ElicitRequestParams): Promise<ElicitResult> {
  return params.message.startsWith("Region") ? { action: "accept", content: { region: "eu-west-1" } } : { action: "accept", content: { yes: true } };
}

/**
 * Starts the fleet under `keys`, makes `calls` three-round calls, rolls every
 * instance onto `nextKeys` (phase 1 of a rotation), makes `calls` more.
 */
export async function runFleetExample(programs: FleetPrograms, keys: string, nextKeys: string, calls = 6): Promise<FleetExampleOutcome> {
  const fleet = await Fleet.start(programs, { keys });
  try {
    const client = await Client.connect(fleet.url, { onElicit: answer });
    const results: string[] = [];
    const call = async () => {
      const result = await client.callTool("provision", { app: `shop-${results.length}` });
      const first = result.content[0];
      results.push(first?.type === "text" ? first.text : "");
    };
    for (let i = 0; i < calls; i++) await call();
    await fleet.rollingRestart(nextKeys);
    for (let i = 0; i < calls; i++) await call();
    await client.close();
    return {
      results,
      instances: [...new Set(results.map((text) => text.split(" by ").at(-1)!))].sort(),
      rings: fleet.instances.map(
        (instance) =>
          instance
            .log()
            .split("\n")
            .filter((line) => line.startsWith("requestState key ring"))
            .at(-1) ?? "",
      ),
    };
  } finally {
    await fleet.stop();
  }
}

// Declared dependencies against the same exchange built by hand, in process:
// one tool asks two independent questions in one round, then a third that
// quotes both, so a call takes three requests with sealed state. The gap is
// the price of `needs` (resolvers, digests, answer validation, state JSON).
//
//   npm run build && node bench/dependencies/needs-vs-hand.mjs [--seconds 6] [--json]
//
// Contenders run in interleaved slices and each keeps its best slice, so a
// noisy neighbour on a shared machine skews both alike.
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "6" },
    slices: { type: "string", default: "6" },
    json: { type: "boolean", default: false },
  },
});
const dist = new URL("../../dist/runtime/", import.meta.url).href;
const load = (path) =>
  import(dist + path).catch((error) => {
    console.error(`Cannot load ${dist + path} (${error.message}). Run \`npm run build\` first.`);
    process.exit(1);
  });
const { McpServer, elicit, inputRequired } = await load("entries/server.js");
const { Client } = await load("entries/client-node.js");

const regionForm = { type: "object", properties: { region: { type: "string", enum: ["eu", "us"] } }, required: ["region"] };
const sizeForm = { type: "object", properties: { gb: { type: "integer", minimum: 1 } }, required: ["gb"] };
const yesNo = { type: "object", properties: { yes: { type: "boolean" } }, required: ["yes"] };
const ask = (message, requestedSchema) => ({ method: "elicitation/create", params: { mode: "form", message, requestedSchema } });
const done = (region, gb) => ({ content: [{ type: "text", text: `${gb} GB in ${region}` }] });

const server = new McpServer({ name: "bench-needs", version: "1.0.0" });
server.tool(
  "needs",
  {
    needs: (need) =>
      need
        .add("region", () => elicit({ message: "Region?", schema: regionForm }))
        .add("size", () => elicit({ message: "Size?", schema: sizeForm }))
        .add("confirm", (_args, { region, size }) => elicit({ message: `Create ${size.content?.gb} GB in ${region.content?.region}?`, schema: yesNo })),
  },
  (_args, { region, size }) => done(region.content?.region, size.content?.gb),
);
// The same questions by hand: answers of round one carried in the (sealed) state.
server.tool("hand", {}, (_args, ctx) => {
  const answers = ctx.inputResponses ?? {};
  const earlier = ctx.requestState === undefined ? undefined : JSON.parse(ctx.requestState);
  if (earlier === undefined) {
    if (answers.region?.content && answers.size?.content) {
      const [region, gb] = [answers.region.content.region, answers.size.content.gb];
      return inputRequired({ inputRequests: { confirm: ask(`Create ${gb} GB in ${region}?`, yesNo) }, requestState: JSON.stringify({ region, gb }) });
    }
    return inputRequired({ inputRequests: { region: ask("Region?", regionForm), size: ask("Size?", sizeForm) } });
  }
  if (!answers.confirm?.content)
    return inputRequired({ inputRequests: { confirm: ask(`Create ${earlier.gb} GB in ${earlier.region}?`, yesNo) }, requestState: ctx.requestState });
  return done(earlier.region, earlier.gb);
});

const client = await Client.connect(server, {
  onElicit: async (params) => {
    if (params.message === "Region?") return { action: "accept", content: { region: "eu" } };
    if (params.message === "Size?") return { action: "accept", content: { gb: 8 } };
    return { action: "accept", content: { yes: true } };
  },
});
for (const name of ["needs", "hand"]) {
  const result = await client.callTool(name, {});
  if (result.content[0].text !== "8 GB in eu") throw new Error(`${name} answered ${JSON.stringify(result)}`);
}

// Best slice per contender: wall-clock calls/s, and process CPU µs per call (steadier on a busy machine).
const best = { needs: { perSecond: 0, cpuMicros: Infinity }, hand: { perSecond: 0, cpuMicros: Infinity } };
const sliceMs = (Number(values.seconds) * 1000) / Number(values.slices) / 2;
for (let slice = 0; slice < Number(values.slices); slice++) {
  for (const name of ["needs", "hand"]) {
    let calls = 0;
    const cpu = process.cpuUsage();
    const start = performance.now();
    while (performance.now() - start < sliceMs) {
      await client.callTool(name, {});
      calls++;
    }
    const elapsed = (performance.now() - start) / 1000;
    const used = process.cpuUsage(cpu);
    best[name].perSecond = Math.max(best[name].perSecond, calls / elapsed);
    best[name].cpuMicros = Math.min(best[name].cpuMicros, (used.user + used.system) / calls);
  }
}
const results = ["needs", "hand"].map((contender) => ({
  contender,
  callsPerSecond: Math.round(best[contender].perSecond),
  cpuMicrosPerCall: Math.round(best[contender].cpuMicros),
}));
if (values.json) console.log(JSON.stringify(results));
else {
  console.log("three-request exchange (two rounds, sealed state), in process");
  for (const r of results) console.log(`  ${r.contender.padEnd(5)} ${r.callsPerSecond} calls/s, ${r.cpuMicrosPerCall} CPU µs per call`);
  console.log(`  cost of needs: ${results[0].cpuMicrosPerCall - results[1].cpuMicrosPerCall} CPU µs per call`);
}
await client.close();

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
const { McpServer, elicit, inputRequired } = await load("server/index.js");
const { Client } = await load("client/index.js");

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
  if (!answers.confirm?.content) return inputRequired({ inputRequests: { confirm: ask(`Create ${earlier.gb} GB in ${earlier.region}?`, yesNo) }, requestState: ctx.requestState });
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

const best = { needs: 0, hand: 0 };
const sliceMs = (Number(values.seconds) * 1000) / Number(values.slices) / 2;
for (let slice = 0; slice < Number(values.slices); slice++) {
  for (const name of ["needs", "hand"]) {
    let calls = 0;
    const start = performance.now();
    while (performance.now() - start < sliceMs) {
      await client.callTool(name, {});
      calls++;
    }
    best[name] = Math.max(best[name], calls / ((performance.now() - start) / 1000));
  }
}
const report = {
  needsCallsPerSecond: Math.round(best.needs),
  handCallsPerSecond: Math.round(best.hand),
  needsOverheadMicrosPerCall: Math.round((1 / best.needs - 1 / best.hand) * 1e6),
};
if (values.json) console.log(JSON.stringify(report));
else {
  console.log(`three-request exchange (two rounds, sealed state), in process`);
  console.log(`  needs: ${report.needsCallsPerSecond} calls/s`);
  console.log(`  hand:  ${report.handCallsPerSecond} calls/s`);
  console.log(`  cost of needs: ${report.needsOverheadMicrosPerCall} µs per call`);
}
await client.close();

const [root] = process.argv.slice(2);
const { McpServer, elicit } = await import(`${root}/runtime/entries/server.js`);
const { serveHttp } = await import(`${root}/runtime/entries/node.js`);
const TEXT = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };
const CONFIRM = { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] };
const server = new McpServer({ name: "bench", version: "1.0.0" });
server.tool(
  "ask",
  { inputSchema: TEXT, needs: (need) => need.add("confirm", ({ text }) => elicit({ message: `Confirm ${text}?`, schema: CONFIRM })) },
  ({ text }, { confirm }) => ({ content: [{ type: "text", text: confirm.action === "accept" ? `confirmed:${text}` : "declined" }] }),
);
const h = await serveHttp(server, { port: 0 });
console.log(h.url);
setTimeout(async () => {
  await h.close();
  process.exit(0);
}, 9000);

// `node dist/examples/browser/main.js [pagePort] [mcpPort]`: serves the
// browser example (the page on one origin, the MCP server on another) until
// Ctrl+C, and prints the address to open.
import { startBrowserSite } from "./site.js";

const [pagePort, mcpPort] = process.argv.slice(2).map(Number);
const site = await startBrowserSite({ pagePort: pagePort ?? 0, mcpPort: mcpPort ?? 0 });
console.log(`page   ${site.pageUrl}`);
console.log(`server ${site.mcpUrl} (allows the origin ${site.pageOrigin})`);
process.once("SIGINT", () => void site.close().then(() => process.exit(0)));

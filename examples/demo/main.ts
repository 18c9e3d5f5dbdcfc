// `npm run demo`: the seed's provision flow end to end. Asks the question on
// a terminal; otherwise answers with the default region. With a URL argument
// (`npm run demo -- http://127.0.0.1:3000/mcp`) the client talks to a
// provision server over Streamable HTTP (serve-http.ts) instead of one in
// this process.
import { createInterface } from "node:readline/promises";
import { runDemo } from "./run.js";

const interactive = process.stdin.isTTY === true;
const prompt = interactive ? createInterface({ input: process.stdin, output: process.stdout }) : undefined;

const url = process.argv[2];

try {
  await runDemo(
    {
      print: (line) => console.log(line),
      async ask(question, fallback) {
        if (prompt === undefined) {
          console.log(`  ? ${question} (no terminal: answering ${fallback})`);
          return fallback;
        }
        // End of input (Ctrl+D) counts as taking the default rather than failing the demo.
        const answer = await prompt.question(`  ? ${question} [${fallback}] `).catch(() => "");
        return answer.trim() === "" ? fallback : answer.trim();
      },
    },
    url,
  );
} catch (error) {
  console.error(`The demo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  prompt?.close();
}

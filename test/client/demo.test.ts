import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { MODERN_PROTOCOL_VERSION } from "mcp-roundtrip/client";
import { runDemo } from "../../examples/demo/run.js";
import { ensureBuilt, root } from "./ensure-built.js";

describe("npm run demo", () => {
  it("prints each round: the question, the sealed token's start, and the final result", async () => {
    const lines: string[] = [];
    const questions: string[] = [];
    await runDemo({
      print: (line) => lines.push(line),
      ask: async (question) => {
        questions.push(question);
        return "ap-south-1";
      },
    });
    const output = lines.join("\n");
    expect(output).toContain(`over protocol ${MODERN_PROTOCOL_VERSION}`);
    expect(output).toContain('region: elicitation/create "Which region should the database live in?"');
    expect(output).toMatch(/requestState: v1\.[A-Za-z0-9_-]{11}… \(\d+ chars/);
    expect(output).toContain("Provisioned 'orders' in ap-south-1.");
    expect(output).toContain("Provisioned 'analytics' in ap-south-1.");
    expect(questions).toEqual(["Which region should the database live in?", "Which region should the database live in?"]);
  });

  it("runs as a process without a terminal, answers with the default and exits 0", () => {
    const entry = "dist/examples/demo/main.js";
    ensureBuilt("examples/demo/main.js");
    const run = spawnSync(process.execPath, [entry], { cwd: root, encoding: "utf8", stdio: ["pipe", "pipe", "pipe"], input: "" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("no terminal: answering eu-west-1");
    expect(run.stdout).toContain("Provisioned 'orders' in eu-west-1.");
  });
});

// Session-id and Last-Event-ID fuzzing, short (issue 36, item 6; the 10⁶
// run's figure is in docs/security.md): live 2025 sessions with finished
// streams in their replay logs, and mutated Mcp-Session-Id and
// Last-Event-ID values sent at them, in process and over HTTP. A request is
// answered in a session only when it carried that session's id exactly; a
// resumption replays only events of its own session and of the stream the
// id names, after it; nothing crashes.
import { describe, expect, it } from "vitest";
import { runFuzz } from "../../drill/fuzz.js";

describe("mutated session ids and Last-Event-IDs against live sessions", () => {
  it("20,000 in process and 500 over HTTP: 0 joined to another session, 0 replayed to the wrong stream, 0 crashes", async () => {
    const report = await runFuzz({ mutations: 20_000, http: 500, seed: 36 });
    console.log(report.line);
    expect(report.details).toEqual([]);
    expect({ joined: report.joined, wrongStream: report.wrongStream, crashes: report.crashes }).toEqual({ joined: 0, wrongStream: 0, crashes: 0 });
    // The checks had something to check: requests answered in their own session, and events replayed.
    expect(report.ownSession).toBeGreaterThan(500);
    expect(report.replayed).toBeGreaterThan(500);
    expect(report.statuses[404]).toBeGreaterThan(1_000);
    expect(report.overHttp).toBeGreaterThan(400);
  }, 60_000);
});

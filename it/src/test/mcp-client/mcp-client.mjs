// Drives Toolgate's /mcp with an official MCP TypeScript SDK client, unchanged: v1 (@modelcontextprotocol/sdk, the
// 2025-11-25 initialize handshake) or, with "sdk": "v2", v2 (@modelcontextprotocol/client) in its 'auto' version
// negotiation: it probes with server/discover and uses the 2026-07-28 ("modern") era where the server offers it.
// One process serves a whole test JVM (McpSdk): loading node and the SDK cost 1-1.7 s on 2 busy cores, once per
// session before. Each input is still a session of its own: a new Client and transport, connected, the steps, closed.
// Input (stdin): one JSON object a line: {"url", "token", "sdk"?: "v1" | "v2", "steps": [{"list": true} | {"call": name, "arguments": {...}, "times"?: n, "meta"?: {...}}]}
// Output (stdout): one JSON object a line for each input: {"protocolVersion", "era", "server", "steps": [...]}, each step's
// result or {"error": {code, message}}; or {"failure": "..."} when the session itself failed (connect, list).
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as StreamableHTTPClientTransportV2 } from "@modelcontextprotocol/client";

function connectWith(input) {
  const requestInit = { headers: { Authorization: `Bearer ${input.token}` } };
  const info = { name: "toolgate-it", version: "1.0.0" };
  if (input.sdk === "v2") {
    return {
      transport: new StreamableHTTPClientTransportV2(new URL(input.url), { requestInit }),
      client: new ClientV2(info, { versionNegotiation: { mode: "auto" } }),
    };
  }
  return { transport: new StreamableHTTPClientTransport(new URL(input.url), { requestInit }), client: new Client(info) };
}

async function session(input) {
  const { transport, client } = connectWith(input);
  await client.connect(transport);

  async function call(step) {
    try {
      return await client.callTool({ name: step.call, arguments: step.arguments, _meta: step.meta });
    } catch (e) {
      return { error: { code: e.code ?? null, message: String(e.message) } };
    }
  }

  try {
    const steps = [];
    for (const step of input.steps) {
      if (step.list) {
        steps.push(await client.listTools());
      } else if (step.times) { // concurrently, as many agents' retries would arrive
        steps.push(await Promise.all(Array.from({ length: step.times }, () => call(step))));
      } else {
        steps.push(await call(step));
      }
    }
    return {
      protocolVersion: client.getNegotiatedProtocolVersion?.() ?? transport.protocolVersion ?? null,
      era: client.getProtocolEra?.() ?? "legacy",
      server: client.getServerVersion() ?? null,
      steps,
    };
  } finally {
    await client.close();
  }
}

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (line.trim() === "") {
    continue;
  }
  let answer;
  try {
    answer = await session(JSON.parse(line));
  } catch (e) {
    answer = { failure: String(e?.stack ?? e) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}

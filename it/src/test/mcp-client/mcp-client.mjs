// Drives Toolgate's /mcp with the official MCP TypeScript SDK client, unchanged.
// Input (stdin): {"url", "token", "steps": [{"list": true} | {"call": name, "arguments": {...}, "times"?: n, "meta"?: {...}}]}
// Output (stdout): one JSON object: {"protocolVersion", "server", "steps": [...]}, each step's result or {"error": {code, message}}.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const input = JSON.parse(await new Promise((resolve) => {
  let text = "";
  process.stdin.on("data", (chunk) => (text += chunk));
  process.stdin.on("end", () => resolve(text));
}));

const transport = new StreamableHTTPClientTransport(new URL(input.url), {
  requestInit: { headers: { Authorization: `Bearer ${input.token}` } },
});
const client = new Client({ name: "toolgate-it", version: "1.0.0" });
await client.connect(transport);

async function call(step) {
  try {
    return await client.callTool({ name: step.call, arguments: step.arguments, _meta: step.meta });
  } catch (e) {
    return { error: { code: e.code ?? null, message: String(e.message) } };
  }
}

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
process.stdout.write(JSON.stringify({
  protocolVersion: transport.protocolVersion ?? null,
  server: client.getServerVersion() ?? null,
  steps,
}));
await client.close();

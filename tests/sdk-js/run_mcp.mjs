// RunPod's MCP server (@runpod/mcp-server, pinned in package.json) against the simulator, over stdio: list its
// tools, call the read tools that use only REST v2 and print one JSON line "RESULT {...}".
// Usage: RUNPOD_API_KEY=... node run_mcp.mjs <v2 base URL without /v2> <serverless URL> <closed loopback URL>
// The server would reach RunPod's GraphQL API (its GraphQL tools) and PostHog (only when POSTHOG_API_KEY is set):
// every such address is pointed at a closed loopback port and POSTHOG_API_KEY is removed, so nothing leaves the machine.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { createRequire } from "node:module";
import path from "node:path";

const [base, serverless, closed] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const server = path.join(path.dirname(require.resolve("@runpod/mcp-server/package.json")), "dist", "stdio.mjs");
const env = { ...process.env };
delete env.POSTHOG_API_KEY;
delete env.MCP_ANALYTICS_SALT;
Object.assign(env, {
  RUNPOD_API_BASE_URL: base,
  RUNPOD_SERVERLESS_API_URL: serverless,
  RUNPOD_PUBLIC_GRAPHQL_URL: closed,
  RUNPOD_AUTHED_GRAPHQL_URL: closed,
  POSTHOG_HOST: closed,
});
const transport = new StdioClientTransport({ command: process.execPath, args: [server], env, stderr: "inherit" });
const client = new Client({ name: "runpod-cloud-check", version: "0.0.0" });
await client.connect(transport);

const summary = { tools: [], calls: {} };
async function call(name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content || []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
  let payload;
  try { payload = JSON.parse(text); } catch { payload = text; }
  summary.calls[name] = { isError: Boolean(result.isError), payload };
  return payload;
}
try {
  summary.tools = (await client.listTools()).tools.map((t) => t.name).sort();
  const pods = await call("list-pods");
  const list = Array.isArray(pods) ? pods : (pods && pods.pods) || [];
  if (list.length) {
    await call("get-pod", { id: list[0].id });
    // The log stream never closes: the tool reads it for maxWaitMs, which also bounds the wait for the answer's
    // headers (500 ms, the least it takes, can pass before a loaded machine answers).
    await call("stream-pod-logs", { podId: list[0].id, tail: 10, maxWaitMs: 3000 });
  }
  await call("list-endpoints");
  await call("list-templates");
  await call("list-network-volumes");
  for (const name of summary.tools.filter((t) => /^list-.*secret/.test(t))) await call(name);
} finally {
  await client.close();
}
console.log("RESULT " + JSON.stringify(summary));

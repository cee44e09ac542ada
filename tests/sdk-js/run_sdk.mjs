// The JavaScript runpod-sdk (pinned in package.json) against a runtime API base URL, for the tests in
// tests/integration/test_endpoint_job_sdks.py: `node run_sdk.mjs <baseUrl> <endpointId> <mode> <input JSON>`,
// the API key from RUNPOD_API_KEY. mode runSync: Endpoint.runSync(); mode run: Endpoint.run() then
// Endpoint.status() until the job ends. Prints one line `RESULT <json>` (the SDK's own answer).
import runpodSdk from "runpod-sdk";

const [baseUrl, endpointId, mode, inputJson] = process.argv.slice(2);
const endpoint = runpodSdk(process.env.RUNPOD_API_KEY, { baseUrl }).endpoint(endpointId);
const request = { input: JSON.parse(inputJson) };
let result;
if (mode === "runSync") {
  result = await endpoint.runSync(request, 120000);
} else {
  const { id } = await endpoint.run(request);
  const deadline = Date.now() + 120000;
  do {
    await new Promise((resolve) => setTimeout(resolve, 100));
    result = await endpoint.status(id);
  } while (!result.completed && Date.now() < deadline);
}
console.log(`RESULT ${JSON.stringify(result)}`);

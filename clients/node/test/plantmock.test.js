// Starts the image with the task board, a scenario, seed data and an
// admin token; creates a task, reads the journal and verifies it through
// the helpers, checks the scenario's answer, resets, and stops the
// container. Without a container runtime the test is skipped, or fails
// when CI is set. PLANTMOCK_IMAGE picks the image (default plantmock:ci,
// which .ci/container builds).
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import test from "node:test";
import { getContainerRuntimeClient } from "testcontainers";
import { AdminError, PlantmockContainer } from "../index.js";

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const image = process.env.PLANTMOCK_IMAGE || "plantmock:ci";

/** @param {import("node:test").TestContext} t */
async function requireRuntime(t) {
  try {
    await getContainerRuntimeClient();
    return true;
  } catch (err) {
    const msg = `no container runtime (Docker, or podman system service with DOCKER_HOST set to its socket): ${err.message}`;
    if (process.env.CI) throw new Error(msg);
    t.skip(msg);
    return false;
  }
}

/** A call to the mocked API with the task board's API key: [status, body]. */
async function call(method, url, body) {
  const headers = { "X-API-Key": "tc-key" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(url, { method, headers, body });
  return [res.status, await res.text()];
}

test("a plantmock container with a document and a scenario", async (t) => {
  if (!(await requireRuntime(t))) return;
  const mock = await new PlantmockContainer(image)
    .withDocument(here("../../../examples/tasks.yaml"))
    .withScenarios(here("../../../testcontainers/testdata/board-busy.yaml"))
    .withSeedData(here("../../../testcontainers/testdata/seed.json"))
    .withAdminToken("tc-admin-token")
    .start();
  let stopped = false;
  t.after(async () => {
    if (!stopped) await mock.stop();
  });
  const base = mock.baseUrl();
  assert.match(base, /^http:\/\/[^/]+:\d+$/);
  assert.equal(mock.adminUrl(), `${base}/__admin`);

  const water = '{"done":false,"taskId":"water","title":"Water the fern"}';
  assert.deepEqual(await call("POST", `${base}/tasks`, '{"taskId":"water","title":"Water the fern"}'), [201, water]);
  assert.deepEqual(await call("GET", `${base}/tasks/water`), [200, water]);
  assert.deepEqual(await call("GET", `${base}/tasks`), [
    200,
    '[{"done":true,"taskId":"repot","title":"Repot the fern"},{"done":false,"taskId":"water","title":"Water the fern"}]',
  ]);

  const journal = await mock.journal();
  assert.deepEqual(
    journal.map((e) => [e.seq, e.method, e.path, e.operation, e.status, e.body]),
    [
      [1, "POST", "/tasks", "POST /tasks", 201, { taskId: "water", title: "Water the fern" }],
      [2, "GET", "/tasks/water", "GET /tasks/{taskId}", 200, undefined],
      [3, "GET", "/tasks", "GET /tasks", 200, undefined],
    ],
  );
  assert.deepEqual(journal[0].response, { done: false, taskId: "water", title: "Water the fern" });
  await mock.verify("post", "/tasks", 1);
  await assert.rejects(mock.verify("GET", "/tasks/{taskId}", 2), {
    message: "plantmock: GET /tasks/{taskId} was requested 1 times, not 2",
  });
  const found = await mock.findRequests({ operation: "POST /tasks", body: { taskId: "/^wat/" } });
  assert.deepEqual(found.map((e) => e.seq), [1]);
  assert.equal(await mock.countRequests({ status: 200 }), 2);

  await mock.setScenario("board-busy");
  assert.deepEqual(await call("GET", `${base}/tasks/water`), [
    422,
    '{"code":42290,"detail":"the board is busy: request 1 refused","title":"board busy"}',
  ]);
  const [busy] = await mock.findRequests({ status: 422 });
  assert.equal(busy.scenario, "board-busy");
  await mock.setScenario(null);
  assert.deepEqual(await call("GET", `${base}/tasks/water`), [200, water]);

  await assert.rejects(mock.setScenario("no-such-scenario"), (err) => {
    assert.ok(err instanceof AdminError);
    assert.equal(err.status, 400);
    assert.equal(
      err.body,
      '{"error":40006,"message":"no scenario is named \\"no-such-scenario\\"; known: board-busy, first-call-fails, flaky, slow"}',
    );
    return true;
  });
  assert.deepEqual(await call("GET", `${mock.adminUrl()}/requests`), [
    401,
    '{"error":40102,"message":"the admin API needs \\"Authorization: Bearer <admin token>\\""}',
  ]);

  await mock.reset();
  assert.deepEqual(await call("GET", `${base}/tasks/water`), [
    404,
    '{"code":40401,"title":"Not Found","detail":"no resource with taskId \\"water\\" in /tasks"}',
  ]);
  assert.deepEqual((await mock.journal()).map((e) => e.status), [404]);

  await mock.stop();
  stopped = true;
  await assert.rejects(fetch(`${base}/__admin/health`));
});

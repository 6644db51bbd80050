// plantmock in a container for tests, with Testcontainers for Node:
//
//   const mock = await new PlantmockContainer("ghcr.io/plantmock/plantmock:latest")
//     .withDocument("openapi.yaml")
//     .withScenarios("scenarios/first-create-fails.yaml")
//     .start();
//   await fetch(`${mock.baseUrl()}/plants`);
//   await mock.verify("GET", "/plants", 1);
//   await mock.stop();
//
// Plain JavaScript with JSDoc types: no build step.
import path from "node:path";
import { AbstractStartedContainer, GenericContainer, Wait } from "testcontainers";

/** The port the image listens on (its PLANTMOCK_ADDR is 0.0.0.0:4010). */
export const PORT = 4010;

// Where the files given are copied, inside the container (whose
// /plantmock is the binary).
const SPEC_DIR = "/specs";
const SCENARIO_DIR = "/scenarios";
const SEED_FILE = "/seed-data.json";

/**
 * A journal entry: a request the mock received (or, with direction
 * "outbound", a webhook or callback it sent) and its answer. The admin
 * API's document (/__admin/openapi.yaml) describes every field.
 * @typedef {object} Entry
 * @property {number} seq
 * @property {string} time
 * @property {string} method
 * @property {string} path
 * @property {string} [query]
 * @property {Record<string, string[]>} [headers]
 * @property {unknown} [body]
 * @property {string} [operation] METHOD /path/template
 * @property {string} [document]
 * @property {string} [scenario]
 * @property {number} [rule]
 * @property {number} status
 * @property {unknown} [response]
 * @property {{path: string, reason: string}[]} [violations]
 */

/**
 * What selects journal entries; {} selects them all.
 * @typedef {object} Match
 * @property {string} [operation] METHOD /path/template, as the document writes it
 * @property {string} [document] where the mock serves several
 * @property {"inbound"|"outbound"} [direction]
 * @property {number} [status]
 * @property {unknown} [body] a JSON subset of the request body; strings may be /regex/
 */

/** An admin call the mock refused, with its answer. */
export class AdminError extends Error {
  /**
   * @param {string} method
   * @param {string} path
   * @param {number} status
   * @param {string} body
   */
  constructor(method, path, status, body) {
    super(`plantmock: ${method} ${path}: ${status} ${body}`);
    this.name = "AdminError";
    this.status = status;
    this.body = body;
  }
}

/** A plantmock container to start: the image with its options. */
export class PlantmockContainer extends GenericContainer {
  /** @param {string} image */
  constructor(image) {
    super(image);
    /** @type {string[]} */
    this.documents = [];
    /** @type {string[]} */
    this.flags = [];
    this.scenarios = false;
    /** @type {string | undefined} */
    this.adminToken = undefined;
    this.withExposedPorts(PORT)
      .withWaitStrategy(Wait.forHttp("/__admin/health", PORT).forStatusCode(200))
      .withStartupTimeout(60_000);
  }

  /**
   * Serves the OpenAPI document at file (on the host) instead of the
   * image's Plant Store; under base (such as "/billing") when given, else
   * under the path of its first server URL. Repeat it to serve several.
   * @param {string} file
   * @param {string} [base]
   */
  withDocument(file, base) {
    const target = `${SPEC_DIR}/${this.documents.length + 1}-${path.basename(file)}`;
    this.withCopyFilesToContainer([{ source: path.resolve(file), target, mode: 0o644 }]);
    this.documents.push(base ? `${base}=${target}` : target);
    return this;
  }

  /**
   * Loads scenario files (on the host) besides the shipped ones.
   * @param {...string} files
   */
  withScenarios(...files) {
    this.withCopyFilesToContainer(
      files.map((f) => ({ source: path.resolve(f), target: `${SCENARIO_DIR}/${path.basename(f)}`, mode: 0o644 })),
    );
    this.scenarios = true;
    return this;
  }

  /**
   * Stores the resources of a JSON seed file (on the host) at start.
   * @param {string} file
   */
  withSeedData(file) {
    this.withCopyFilesToContainer([{ source: path.resolve(file), target: SEED_FILE, mode: 0o644 }]);
    return this.withFlag("seed-data", SEED_FILE);
  }

  /**
   * Makes every admin call need this bearer token; the helpers send it.
   * @param {string} token
   */
  withAdminToken(token) {
    this.adminToken = token;
    return this.withFlag("admin-token", token);
  }

  /**
   * Keeps the mock's state in Redis at url, as the container sees it.
   * @param {string} url redis://HOST:PORT/DB
   */
  withRedis(url) {
    return this.withFlag("store", url);
  }

  /**
   * Passes any flag of plantmock: withFlag("seed", "42") is --seed=42.
   * @param {string} name
   * @param {string} value
   */
  withFlag(name, value) {
    const bare = name.replace(/^-+/, "");
    if (!bare) throw new Error("plantmock: withFlag: no flag name");
    this.flags.push(`--${bare}=${value}`);
    return this;
  }

  /** @returns {Promise<StartedPlantmockContainer>} */
  async start() {
    const args = [...this.flags];
    if (this.documents.length > 0) args.push(`--spec=${this.documents.join(",")}`);
    if (this.scenarios) args.push(`--scenarios=${SCENARIO_DIR}`);
    this.withCommand(args);
    return new StartedPlantmockContainer(await super.start(), this.adminToken);
  }
}

/** A running plantmock, with helpers over its admin API. */
export class StartedPlantmockContainer extends AbstractStartedContainer {
  /**
   * @param {import("testcontainers").StartedTestContainer} started
   * @param {string | undefined} adminToken
   */
  constructor(started, adminToken) {
    super(started);
    this.adminToken = adminToken;
  }

  /** Where the mocked API answers from the host: http://HOST:PORT. */
  baseUrl() {
    return `http://${this.getHost()}:${this.getMappedPort(PORT)}`;
  }

  /** The admin API's root: baseUrl() followed by /__admin. */
  adminUrl() {
    return `${this.baseUrl()}/__admin`;
  }

  /**
   * An admin call with the admin token, if any; an answer other than want
   * throws an AdminError.
   * @param {string} method
   * @param {string} p
   * @param {unknown} body
   * @param {number} want
   */
  async #admin(method, p, body, want) {
    /** @type {Record<string, string>} */
    const headers = {};
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (this.adminToken) headers.Authorization = `Bearer ${this.adminToken}`;
    const res = await fetch(this.adminUrl() + p, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== want) throw new AdminError(method, `/__admin${p}`, res.status, text);
    return text ? JSON.parse(text) : undefined;
  }

  /** Empties the store and the journal, restarts rule counters (POST /__admin/reset). */
  async reset() {
    await this.#admin("POST", "/reset", undefined, 204);
  }

  /**
   * Makes the scenario of this name active; null makes none active
   * (PUT /__admin/scenario).
   * @param {string | null} name
   */
  async setScenario(name) {
    await this.#admin("PUT", "/scenario", { name }, 200);
  }

  /**
   * The journal, oldest first (GET /__admin/requests).
   * @returns {Promise<Entry[]>}
   */
  async journal() {
    return (await this.#admin("GET", "/requests", undefined, 200)).requests;
  }

  /**
   * The journal entries that match, oldest first (POST /__admin/requests/find).
   * @param {Match} match
   * @returns {Promise<Entry[]>}
   */
  async findRequests(match) {
    return (await this.#admin("POST", "/requests/find", match, 200)).requests;
  }

  /**
   * How many journal entries match (POST /__admin/requests/count).
   * @param {Match} match
   * @returns {Promise<number>}
   */
  async countRequests(match) {
    return (await this.#admin("POST", "/requests/count", match, 200)).count;
  }

  /**
   * Throws unless the operation of method and path (the document's path
   * template, such as /tasks/{taskId}) was requested exactly times times.
   * @param {string} method
   * @param {string} pathTemplate
   * @param {number} times
   */
  async verify(method, pathTemplate, times) {
    const operation = `${method.toUpperCase()} ${pathTemplate}`;
    const n = await this.countRequests({ operation });
    if (n !== times) throw new Error(`plantmock: ${operation} was requested ${n} times, not ${times}`);
  }
}

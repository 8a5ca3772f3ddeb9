/**
 * One shape for every upstream fault test: while a fault is on, the faulted
 * operation answers by its deadline with the right code and its healthy
 * fields intact, an unrelated operation sent at the same time is untouched;
 * once the fault clears the same operation succeeds; and the upstream API key
 * appears in no response, log line or metric.
 */
import { expect } from 'vitest';
import { gql, type GraphQLResponse } from './client.js';
import type { TestStack } from './servers.js';

export interface Operation {
  readonly query: string;
  readonly variables?: Record<string, unknown>;
}

export interface Timed<T> {
  readonly value: T;
  readonly elapsedMs: number;
}

export async function timed<T>(run: () => Promise<T>): Promise<Timed<T>> {
  const started = Date.now();
  const value = await run();
  return { value, elapsedMs: Date.now() - started };
}

export function send(stack: TestStack, operation: Operation): Promise<Timed<GraphQLResponse>> {
  return timed(() => gql(stack.gateway.url, operation.query, operation.variables));
}

/** Reads a dotted path (`v1.hockey.lines`) out of `data`. */
export function at(data: unknown, path: string): unknown {
  let value = data;
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

export interface FaultScenario {
  /** Turns the fault on. */
  readonly inject: () => Promise<void>;
  /** One operation with a field the fault hits and a field it does not. */
  readonly operation: Operation;
  /** Dotted path of the faulted field in `data`. */
  readonly faultedPath: string;
  /** Dotted path of a field that must still resolve while the fault is on. */
  readonly healthyPath?: string;
  readonly code: string;
  /** Extensions the coded error must carry besides `code`. */
  readonly extensions?: Record<string, unknown>;
  /** The operation deadline (OPERATION_TIMEOUT_MS) the answer must come within. */
  readonly deadlineMs: number;
  /** An operation on other routes, sent at the same time as the faulted one. */
  readonly bystander: Operation;
  /** Turns the fault off (and waits out whatever the fault left behind, e.g. a cooldown). */
  readonly clear: () => Promise<void>;
}

export interface ScenarioOutcome {
  readonly faulted: Timed<GraphQLResponse>;
  readonly bystander: Timed<GraphQLResponse>;
  readonly recovered: Timed<GraphQLResponse>;
}

/** Slack on top of the deadline for the HTTP round trip and the event loop of a loaded CI box. */
const DEADLINE_SLACK_MS = 750;

export async function runFaultScenario(stack: TestStack, scenario: FaultScenario): Promise<ScenarioOutcome> {
  await scenario.inject();
  const [faulted, bystander] = await Promise.all([send(stack, scenario.operation), send(stack, scenario.bystander)]);

  expect(faulted.value.status).toBe(200);
  expect(at(faulted.value.data, scenario.faultedPath)).toBeNull();
  if (scenario.healthyPath !== undefined) expect(at(faulted.value.data, scenario.healthyPath)).toBeTruthy();
  expect(faulted.value.errors).toHaveLength(1);
  expect(faulted.value.errors?.[0]?.path?.join('.')).toBe(scenario.faultedPath);
  expect(faulted.value.errors?.[0]?.extensions).toMatchObject({ code: scenario.code, ...scenario.extensions });
  expect(faulted.elapsedMs).toBeLessThan(scenario.deadlineMs + DEADLINE_SLACK_MS);

  expect(bystander.value.errors).toBeUndefined();
  expect(bystander.value.data).toBeTruthy();

  await scenario.clear();
  const recovered = await send(stack, scenario.operation);
  expect(recovered.value.errors).toBeUndefined();
  expect(at(recovered.value.data, scenario.faultedPath)).toBeTruthy();

  await expectKeyNowhere(stack, [faulted.value.text, bystander.value.text, recovered.value.text]);
  return { faulted, bystander, recovered };
}

/** DESIGN.md: the key appears in no error, log line, metric label or response. */
export async function expectKeyNowhere(stack: TestStack, responses: readonly string[]): Promise<void> {
  const metrics = await (await fetch(`${stack.gateway.url}/metrics`)).text();
  const everything = [...responses, metrics, ...stack.logs];
  const leaks = everything.filter((text) => text.includes(stack.apiKey));
  expect(leaks).toEqual([]);
}

/** Resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

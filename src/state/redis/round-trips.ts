/**
 * Counts the round trips a Redis connection makes (issue 16, item 5): every
 * command written on its own is one; a pipeline or MULTI, however many
 * commands it carries, is one, since ioredis writes it in one go and its
 * replies come back together.
 *
 * Counted where ioredis writes, by wrapping the connection's `sendCommand`:
 * every command passes there, those of a pipeline with the pipeline's own
 * stream object, written in one synchronous loop. A command sent again
 * (a script's `EVAL` after `NOSCRIPT`, a resend after a reconnect) is a
 * round trip again, as it is on the wire.
 *
 * The label says who sent it: the Lua script's name (src/state/redis/
 * lua-script.ts) for `EVALSHA`/`EVAL`, else the command's name; a pipeline
 * is `pipeline:` and its first command's (a MULTI: `pipeline:multi`). Every
 * set is bounded by the code.
 */
import type { Command, Redis } from 'ioredis';
import type { Counter } from 'prom-client';
import { scriptNameOf } from './lua-script.js';

/** `sports_graph_redis_round_trips_total` (src/metrics.ts), or anything that counts by a `sender` label. */
export type RoundTripCounter = Pick<Counter<'sender'>, 'labels'>;

type SendCommand = Redis['sendCommand'];
type Stream = Parameters<SendCommand>[1];

/** What sent `command`: a script's name, else the command's. */
export function senderOf(command: Pick<Command, 'name' | 'args'>): string {
  if (command.name === 'evalsha' || command.name === 'eval') {
    const [first] = command.args;
    const name = typeof first === 'string' ? scriptNameOf(first) : undefined;
    if (name !== undefined) return name;
  }
  return command.name;
}

export function countRoundTrips(client: Redis, counter: RoundTripCounter): void {
  // One child per label value: `labels()` hashes its arguments on every call.
  const children = new Map<string, { inc(): void }>();
  const count = (sender: string): void => {
    let child = children.get(sender);
    if (child === undefined) {
      child = counter.labels(sender);
      children.set(sender, child);
    }
    child.inc();
  };
  // A pipeline's commands arrive one after the other with the same stream: the first one counts.
  let pipeline: Stream | undefined;
  const send: SendCommand = client.sendCommand.bind(client);
  client.sendCommand = (command: Command, stream?: Stream): unknown => {
    if (stream === undefined) {
      pipeline = undefined;
      count(senderOf(command));
    } else if (stream !== pipeline) {
      pipeline = stream;
      count(`pipeline:${senderOf(command)}`);
    }
    return send(command, stream);
  };
}

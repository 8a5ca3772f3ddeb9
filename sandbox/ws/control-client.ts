/**
 * The odds socket's control routes as functions, for tests and scripts
 * (see control.ts for what each does).
 */
import type { OddsSocketStats } from './odds-socket.js';

async function post(sandboxUrl: string, path: string, body: unknown = {}): Promise<unknown> {
  const response = await fetch(`${sandboxUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

export const oddsControl = {
  async stats(sandboxUrl: string): Promise<OddsSocketStats> {
    return (await (await fetch(`${sandboxUrl}/__sandbox/ws`)).json()) as OddsSocketStats;
  },
  resetStats: (sandboxUrl: string) => post(sandboxUrl, '/__sandbox/ws/reset'),
  drop: (sandboxUrl: string, match?: string, refuseMs?: number) =>
    post(sandboxUrl, '/__sandbox/ws/drop', { match, refuseMs }),
  silence: (sandboxUrl: string, match?: string) => post(sandboxUrl, '/__sandbox/ws/silence', { match }),
  malformed: (sandboxUrl: string, match?: string) => post(sandboxUrl, '/__sandbox/ws/malformed', { match }),
  market: (sandboxUrl: string, match: string, market: string, action: 'suspend' | 'reopen' | 'close' | 'open') =>
    post(sandboxUrl, `/__sandbox/odds/${encodeURIComponent(match)}/markets/${encodeURIComponent(market)}`, { action }),
  price: (sandboxUrl: string, match: string, market: string, outcome: string, price: number) =>
    post(sandboxUrl, `/__sandbox/odds/${encodeURIComponent(match)}/price`, { market, outcome, price }),
  event: (sandboxUrl: string, match: string) => post(sandboxUrl, `/__sandbox/odds/${encodeURIComponent(match)}/event`),
};

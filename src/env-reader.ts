/**
 * Reading settings from the environment so that every bad value is named,
 * all at once, before anything starts: each reader falls back to its
 * default and records the problem instead of throwing at the first one.
 * Shared by the gateway's config and `npm run cluster`'s settings, which
 * must judge the same variable (PORT, REDIS_URL, SPORTS_API_PLAN) alike.
 */
import { isPlan, planAllowances, type Plan } from './upstream/assumptions.js';

export type Env = Readonly<Record<string, string | undefined>>;

export interface EnvReader {
  /** Every problem found so far, one sentence each. */
  readonly problems: string[];
  int(name: string, fallback: number, min?: number, max?: number): number;
  /** An integer with no default: undefined when unset. */
  optionalInt(name: string, min?: number, max?: number): number | undefined;
  /** A URL with one of `protocols` (`'http:'`), without trailing slashes. */
  /** `fix`, when given, ends the problem's sentence: what a right value looks like. */
  url(name: string, protocols: readonly string[], fix?: string): string | undefined;
  bool(name: string, fallback: boolean): boolean;
  /** A comma-separated list, blanks dropped. */
  list(name: string): string[];
  /** One of `choices`, case-insensitive. */
  choice<T extends string>(name: string, choices: readonly T[], fallback: T): T;
  /** `SPORTS_API_PLAN`, case-insensitive. */
  plan(fallback: Plan): Plan;
}

const TRUE = ['1', 'true', 'yes', 'on'];
const FALSE = ['0', 'false', 'no', 'off'];

export function envReader(env: Env): EnvReader {
  const problems: string[] = [];
  const raw = (name: string): string | undefined => {
    const value = env[name];
    return value === undefined || value === '' ? undefined : value;
  };

  const optionalInt = (name: string, min = 0, max = Number.MAX_SAFE_INTEGER): number | undefined => {
    const text = raw(name);
    if (text === undefined) return undefined;
    const value = Number(text);
    if (!/^\s*-?\d+\s*$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max) {
      const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`;
      problems.push(`${name} must be an integer ${range}, got "${text}"`);
      return undefined;
    }
    return value;
  };

  return {
    problems,
    int: (name, fallback, min, max) => optionalInt(name, min, max) ?? fallback,
    optionalInt,
    url(name, protocols, fix) {
      const text = raw(name);
      if (text === undefined) return undefined;
      const then = fix === undefined ? '' : `: ${fix}`;
      let protocol: string;
      try {
        protocol = new URL(text).protocol;
      } catch {
        problems.push(`${name} is not a URL${then}`);
        return undefined;
      }
      if (!protocols.includes(protocol)) {
        problems.push(`${name} must use ${protocols.join(' or ')}, got "${protocol}"${then}`);
        return undefined;
      }
      return text.replace(/\/+$/, '');
    },
    bool(name, fallback) {
      const text = raw(name)?.toLowerCase();
      if (text === undefined) return fallback;
      if (TRUE.includes(text)) return true;
      if (FALSE.includes(text)) return false;
      problems.push(`${name} must be true or false, got "${text}"`);
      return fallback;
    },
    list: (name) =>
      (env[name] ?? '')
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== ''),
    choice(name, choices, fallback) {
      const text = raw(name)?.toLowerCase();
      if (text === undefined) return fallback;
      const chosen = choices.find((one) => one === text);
      if (chosen !== undefined) return chosen;
      problems.push(`${name} must be one of ${choices.join(', ')}, got "${text}"`);
      return fallback;
    },
    plan(fallback) {
      const text = (raw('SPORTS_API_PLAN') ?? fallback).toLowerCase();
      if (isPlan(text)) return text;
      problems.push(`SPORTS_API_PLAN must be one of ${Object.keys(planAllowances).join(', ')}, got "${text}"`);
      return fallback;
    },
  };
}

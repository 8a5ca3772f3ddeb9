import type { Resolvers } from '../src/generated/resolvers-types.js';
import { baseResolvers } from './base.js';
import { hockeyV1Resolvers } from './hockey-v1.js';
import { quotaResolvers } from './quota.js';
import { v2Resolvers } from './v2.js';

/** Every domain's resolver map; makeExecutableSchema merges them. */
export const resolvers: Resolvers[] = [
  baseResolvers,
  quotaResolvers,
  hockeyV1Resolvers,
  v2Resolvers,
];

import type { Resolvers } from '../src/generated/resolvers-types.js';
import { baseResolvers } from './base.js';
import { hockeyV1Resolvers } from './hockey-v1.js';
import { imageResolvers } from './images.js';
import { quotaResolvers } from './quota.js';
import { oddsResolvers } from './odds.js';
import { liveResolvers } from './live.js';
import { v2Resolvers } from './v2.js';
import { v2EventResolvers } from './v2-events.js';
import { hockeyV2Resolvers } from './hockey-v2.js';
import { baseballResolvers } from './baseball.js';
import { aussieRulesResolvers } from './aussie-rules.js';
import { v6BaseballResolvers } from './v6-baseball.js';
import { v3Resolvers } from './v3.js';
import { cyclingResolvers } from './cycling.js';
import { motorsportResolvers } from './motorsport.js';
import { v4Resolvers } from './v4.js';
import { worldCupV1Resolvers } from './world-cup.js';
import { v6FootballResolvers } from './v6-football.js';
import { footballResolvers } from './football.js';
import { managerResolvers } from './managers.js';
import { identityResolvers } from './identity.js';

/** Every domain's resolver map; makeExecutableSchema merges them. */
export const resolvers: Resolvers[] = [
  baseResolvers,
  quotaResolvers,
  oddsResolvers,
  liveResolvers,
  hockeyV1Resolvers,
  v2Resolvers,
  imageResolvers,
  v2EventResolvers,
  hockeyV2Resolvers,
  baseballResolvers,
  aussieRulesResolvers,
  v6BaseballResolvers,
  v3Resolvers,
  cyclingResolvers,
  motorsportResolvers,
  v4Resolvers,
  worldCupV1Resolvers,
  v6FootballResolvers,
  footballResolvers,
  managerResolvers,
  identityResolvers,
];

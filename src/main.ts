/**
 * The gateway process (`npm start` runs its build, `npm run dev` its
 * source): src/serve.ts, with nothing but the configuration.
 */
import { serve } from './serve.js';

void serve();

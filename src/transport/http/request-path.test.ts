import { describe, expect, it } from 'vitest';
import { pathOfTarget } from './request-path.js';

describe('pathOfTarget', () => {
  it('is what split("?")[0] gives', () => {
    for (const target of ['/graphql', '/graphql?query=x', '/mcp?', '?', '', '/a?b?c', '/images/x%2Fy?v=1'])
      expect(pathOfTarget(target)).toBe(target.split('?')[0]);
    expect(pathOfTarget(undefined)).toBe('');
  });
});

// isolation.test.ts — lib/isolation.ts isolationPlan: when the page reloads itself to become
// cross-origin isolated under the service worker, and when it never does (no loop, no embed).
import { describe, expect, it } from 'vitest';
import { isolationPlan, type IsolationFacts } from '../../web/src/lib/isolation';

const first: IsolationFacts = { isolated: false, embed: false, framed: false, leaving: false, serviceWorker: true, reloaded: false, controlled: false };

describe('isolationPlan', () => {
  it('an isolated page has nothing to do, whatever else holds', () => {
    expect(isolationPlan({ ...first, isolated: true })).toBe('isolated');
    expect(isolationPlan({ ...first, isolated: true, reloaded: true, controlled: true })).toBe('isolated');
  });
  it('a first visit (or a load that bypassed the worker) waits for the worker, then reloads', () => {
    expect(isolationPlan(first)).toBe('await-worker');
  });
  it('a load the worker served without isolating it waits for a newer worker', () => {
    expect(isolationPlan({ ...first, controlled: true })).toBe('await-update');
  });
  it('reloads at most once per tab: a load after the reload stays as it is', () => {
    expect(isolationPlan({ ...first, reloaded: true })).toBe('stay');
    expect(isolationPlan({ ...first, reloaded: true, controlled: true })).toBe('stay');
  });
  it('never reloads without a way to remember the reload (no sessionStorage)', () => {
    expect(isolationPlan({ ...first, reloaded: null })).toBe('stay');
  });
  it('never reloads an embed, a framed page, a page being left, or without service workers', () => {
    expect(isolationPlan({ ...first, embed: true })).toBe('stay');
    expect(isolationPlan({ ...first, framed: true })).toBe('stay');
    expect(isolationPlan({ ...first, leaving: true })).toBe('stay');
    expect(isolationPlan({ ...first, serviceWorker: false })).toBe('stay');
  });
});

// The repository itself holds issue #22's limits on its layers, so a change that breaks one fails
// here, naming the findings: no import cycle, at most five imports in server/ that run back up
// the layers (scripts/house-metrics.ts LAYERS; each one explained by a comment where it is made),
// no two folders of server/ (nor two domains) importing each other both ways, no domain service on
// the tRPC request context, and no server file over 400 lines.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type HouseMetrics, measureHouse } from '../../scripts/house-metrics.js';

const root = path.resolve(import.meta.dirname, '../..');
let metrics: HouseMetrics;

beforeAll(() => {
  metrics = measureHouse(root);
});

describe('the repository’s layers', () => {
  it('have no import cycle in server/ or web/', () => {
    expect(metrics.cycles.map((cycle) => cycle.files.join(' ↔ '))).toEqual([]);
  });

  it('have at most five imports in server/ running back up', () => {
    const upward = metrics.upward.map((edge) => `${edge.from} → ${edge.to}`);
    expect(upward.length, upward.join('\n')).toBeLessThanOrEqual(5);
  });

  // Services take the service context (server/service/context.ts); the request's facts stay with
  // the routers.
  it('have no domain service on the tRPC request context', () => {
    expect(metrics.servicesOnTrpc).toEqual([]);
  });

  it('have no two folders of server/ importing each other both ways', () => {
    expect(metrics.mutualAreas.map(([a, b]) => `${a} ↔ ${b}`)).toEqual([]);
  });

  it('have no two domains importing each other both ways', () => {
    expect(metrics.mutualDomains.map(([a, b]) => `${a} ↔ ${b}`)).toEqual([]);
  });

  it('have no server file over 400 lines', () => {
    expect(metrics.serverFiles.filter((file) => file.lines > 400)).toEqual([]);
  });
});

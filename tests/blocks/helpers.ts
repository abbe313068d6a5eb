// Blocks and mutes through the API, for the tests in this folder.
import type { TestApp, TestMember } from '../setup/harness.js';

export async function blockMember(t: TestApp, by: TestMember, whom: TestMember) {
  const res = await t.request('PUT', `/api/me/blocks/${whom.handle}`, { token: by.token });
  if (res.status !== 200) throw new Error(`block failed: ${res.status} ${res.text}`);
  return res.body;
}

export async function muteMember(t: TestApp, by: TestMember, whom: TestMember) {
  const res = await t.request('PUT', `/api/me/mutes/${whom.handle}`, { token: by.token });
  if (res.status !== 200) throw new Error(`mute failed: ${res.status} ${res.text}`);
  return res.body;
}

/** The texts of every post of a feed page (first page, 100 posts). */
export async function feedBodies(t: TestApp, as: TestMember, query: string): Promise<string[]> {
  const res = await t.request('GET', `/api/feed?limit=100&${query}`, { token: as.token });
  if (res.status !== 200) throw new Error(`feed failed: ${res.status} ${res.text}`);
  return res.body.items.map((p: { body: string }) => p.body);
}

// Friends made the real way: an invite issued by one member and accepted by the other.
import type { TestApp, TestMember } from '../setup/harness.js';

export async function issueInvite(t: TestApp, issuer: TestMember, body: Record<string, unknown> = {}) {
  const res = await t.request('POST', '/api/friends/invites', { token: issuer.token, body });
  if (res.status !== 201) throw new Error(`create invite failed: ${res.status} ${res.text}`);
  return res.body as { _id: string; code: string; expiresAt: string };
}

export async function acceptInvite(t: TestApp, member: TestMember, code: string) {
  return t.request('POST', `/api/friends/invites/${code}/accept`, { token: member.token });
}

/** `a` issues a code, `b` accepts it; returns the friendship. */
export async function makeFriends(t: TestApp, a: TestMember, b: TestMember) {
  const { code } = await issueInvite(t, a);
  const res = await acceptInvite(t, b, code);
  if (res.status !== 200) throw new Error(`accept invite failed: ${res.status} ${res.text}`);
  return res.body as { _id: string; user: { _id: string; handle: string }; since: string };
}

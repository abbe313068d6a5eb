// Group conversations keep both members (the group's own rule), but a member who blocked or
// muted the sender gets no push for their messages; everyone else still does, and the sender's
// side never changes (docs/safety.md). Against the real Web Push test service.
import { beforeAll, describe, expect, it } from 'vitest';
import { messagePushKind } from '../../server/domains/conversations/message-pushes.js';
import { befriend, send, startConversation } from '../messaging/helpers.js';
import { usePushJobHarness } from '../notifications/push-job-harness.js';
import { createMember, type TestApp } from '../setup/harness.js';
import { blockMember, muteMember } from './helpers.js';

const harness = usePushJobHarness(messagePushKind);
const { runJob, subscribe, pushesTo } = harness;
let t: TestApp;
beforeAll(() => {
  ({ t } = harness);
});

describe('message pushes in a group', () => {
  it('skip the members who blocked or muted the sender, and only for that sender', async () => {
    const [sender, blocker, muter, bystander] = await Promise.all(
      ['snd', 'blk', 'mut', 'bys'].map((prefix) => createMember(t, { prefix })),
    );
    for (const other of [blocker!, muter!, bystander!]) await befriend(t, sender!, other);
    await befriend(t, blocker!, muter!);
    const endpoints = {
      sender: await subscribe(sender!),
      blocker: await subscribe(blocker!),
      muter: await subscribe(muter!),
      bystander: await subscribe(bystander!),
    };
    const group = await startConversation(t, sender!, [blocker!, muter!, bystander!], 'Crew');
    await blockMember(t, blocker!, sender!);
    await muteMember(t, muter!, sender!);

    await send(t, sender!, group._id, 'from the sender');
    await runJob();
    expect(pushesTo(endpoints.bystander)).toHaveLength(1);
    expect(pushesTo(endpoints.blocker)).toEqual([]);
    expect(pushesTo(endpoints.muter)).toEqual([]);

    // The blocker's and muter's own messages still reach the sender (a block is not a mute of oneself).
    await send(t, blocker!, group._id, 'from the blocker');
    await runJob();
    expect(pushesTo(endpoints.sender)).toHaveLength(1);
    expect(pushesTo(endpoints.muter)).toHaveLength(1);

    // Lifted: pushes come again.
    await t.request('DELETE', `/api/me/blocks/${sender!.handle}`, { token: blocker!.token });
    await t.request('DELETE', `/api/me/mutes/${sender!.handle}`, { token: muter!.token });
    await send(t, sender!, group._id, 'again');
    await runJob();
    expect(pushesTo(endpoints.blocker).length).toBeGreaterThanOrEqual(1);
    expect(pushesTo(endpoints.muter).length).toBeGreaterThanOrEqual(2);
  });
});

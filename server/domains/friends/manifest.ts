// What the friends domain contributes: friendships and invites, and the expired-invite sweep.
import { friendInviteSweep } from './invite-sweep.js';
import { defineManifest } from '../manifest.js';
import { friendsRouter } from './router.js';

export const friendsManifest = defineManifest({
  domain: 'friends',
  namespaces: { friends: friendsRouter },
  jobs: [() => friendInviteSweep],
});

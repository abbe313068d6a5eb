// What the notifications domain contributes: push tokens, notification preferences (under `me`),
// the member pushes (friend invites accepted, report outcomes), and queued pushes naming a
// deleted member.
import { friendInviteAcceptedPushKind, reportOutcomePushKind } from './member-pushes.js';
import { defineManifest } from '../manifest.js';
import { removePushesNamingDeletedMember } from './account-cleanup.js';
import { notificationPreferencesRouter, pushTokensRouter } from './router.js';

export const notificationsManifest = defineManifest({
  domain: 'notifications',
  namespaces: { pushTokens: pushTokensRouter },
  addsTo: { me: notificationPreferencesRouter },
  pushKinds: [friendInviteAcceptedPushKind, reportOutcomePushKind],
  accountCleaners: [removePushesNamingDeletedMember],
});

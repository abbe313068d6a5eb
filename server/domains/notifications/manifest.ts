// What the notifications domain contributes: push tokens, notification preferences (under `me`),
// the member pushes job, and queued pushes naming a deleted member.
import { createMemberPushJob } from './member-pushes.js';
import { defineManifest } from '../manifest.js';
import { removePushesNamingDeletedMember } from './account-cleanup.js';
import { notificationPreferencesRouter, pushTokensRouter } from './router.js';

export const notificationsManifest = defineManifest({
  domain: 'notifications',
  namespaces: { pushTokens: pushTokensRouter },
  addsTo: { me: notificationPreferencesRouter },
  jobs: [createMemberPushJob],
  accountCleaners: [removePushesNamingDeletedMember],
});

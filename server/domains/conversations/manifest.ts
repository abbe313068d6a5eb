// What the conversations domain contributes: conversations and messages, the expired-messages
// sweep and message pushes, the member's messaging on account deletion, and messages as report
// targets.
import { messagePushKind } from './message-pushes.js';
import { expiredMessagesSweep } from './messages-sweep.js';
import { defineManifest } from '../manifest.js';
import { removeMessagingOfDeletedMember } from './account-cleanup.js';
import { messageReportTarget } from './report-target.js';
import { conversationsRouter } from './router.js';

export const conversationsManifest = defineManifest({
  domain: 'conversations',
  namespaces: { conversations: conversationsRouter },
  jobs: [() => expiredMessagesSweep],
  pushKinds: [messagePushKind],
  accountCleaners: [removeMessagingOfDeletedMember],
  reportTargets: [messageReportTarget],
});

// What the sign-in-alerts domain contributes: "this was not me" (under `auth`) and the alert's
// push. The new-device check itself runs inside sign-in (server/domains/auth/service.ts
// grantSession → alerts.ts); its rows go with the account (foreign keys, on delete cascade).
import { defineManifest } from '../manifest.js';
import { signInAlertPushKind } from './alert-push.js';
import { notMeRouter } from './router.js';

export const signInAlertsManifest = defineManifest({
  domain: 'sign-in-alerts',
  addsTo: { auth: notMeRouter },
  pushKinds: [signInAlertPushKind],
});

// What the two-factor domain contributes: the member's authenticator app and recovery codes
// (under `me`). The sign-in step they answer is the auth domain's (auth/second-factor.ts). The
// tables go with the account (foreign keys cascade).
import { defineManifest } from '../manifest.js';
import { totpRouter } from './router.js';

export const twoFactorManifest = defineManifest({
  domain: 'two-factor',
  addsTo: { me: totpRouter },
});

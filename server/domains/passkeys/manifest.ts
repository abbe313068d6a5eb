// What the passkeys domain contributes: WebAuthn passkeys in the member's own namespace
// (/api/me/passkeys) and passkey sign-in in auth's (/api/auth/passkeys), the check of a passkey
// answering a sign-in ticket (the second-factor step), and the sweep of expired challenges.
// Passkeys cascade with their account.
import { defineManifest } from '../manifest.js';
import { passkeysAuthRouter, passkeysMeRouter } from './router.js';
import { passkeySecondFactor } from './second-factor.js';
import { webauthnChallengeSweep } from './sweep.js';

export const passkeysManifest = defineManifest({
  domain: 'passkeys',
  addsTo: { me: passkeysMeRouter, auth: passkeysAuthRouter },
  jobs: [() => webauthnChallengeSweep],
  passkeySecondFactor,
});

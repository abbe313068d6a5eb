// What the auth domain contributes: sign-in by magic link and identity tokens, sessions.
import { defineManifest } from '../manifest.js';
import { authRouter } from './router.js';

export const authManifest = defineManifest({ domain: 'auth', namespaces: { auth: authRouter } });

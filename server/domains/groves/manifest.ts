// What the groves domain contributes: groves and their membership, and the admin setup routes
// (groves and organizations; kept under `adminSetup` for existing clients).
import { defineManifest } from '../manifest.js';
import { adminSetupRouter } from './admin.js';
import { grovesRouter } from './router.js';

export const grovesManifest = defineManifest({
  domain: 'groves',
  namespaces: { groves: grovesRouter, adminSetup: adminSetupRouter },
});

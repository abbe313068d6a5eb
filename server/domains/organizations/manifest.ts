// What the organizations domain contributes: the public organization pages.
import { defineManifest } from '../manifest.js';
import { organizationsRouter } from './router.js';

export const organizationsManifest = defineManifest({
  domain: 'organizations',
  namespaces: { organizations: organizationsRouter },
});

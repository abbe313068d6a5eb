// What the me domain contributes: the member's own account (other domains add their `me`
// procedures through their manifests' addsTo), and members as a report target.
import { defineManifest } from '../manifest.js';
import { memberReportTarget } from './report-target.js';
import { meRouter } from './router.js';

export const meManifest = defineManifest({
  domain: 'me',
  namespaces: { me: meRouter },
  reportTargets: [memberReportTarget],
});
